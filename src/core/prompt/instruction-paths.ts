import { RULE_FILE_NAMES } from "../rules/discover";
import { SKILL_DIRS } from "../skills/discover";

/**
 * Whether a workspace-relative path is one the system prompt is built from: a rules file (`AGENTS.md`,
 * `CLAUDE.md`, `.cursorrules`, in any folder) or a skill (`SKILL.md` under one of the skill folders). A change
 * to one by the user (an upload, an edit in the viewer) means the session's rules should be read again.
 */
export function isInstructionPath(path: string): boolean {
  const rel = path.replace(/^\/?workspace\//, "").replace(/^\.\//, "");
  const name = rel.split("/").pop() ?? "";
  if ((RULE_FILE_NAMES as readonly string[]).includes(name)) return true;
  return name === "SKILL.md" && SKILL_DIRS.some((dir) => rel.startsWith(`${dir}/`));
}
