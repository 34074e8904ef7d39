import { LOCAL_RULES_NAME, RULE_FILE_NAMES } from "../rules/discover";
import { SKILL_DIRS } from "../skills/discover";

/**
 * Whether a workspace-relative path is one the session's system prompt is read from: a rules file at the
 * workspace root (`AGENTS.md`, `CLAUDE.md`, `.cursorrules`, `AGENTS.local.md`: the session works at the root,
 * and a folder's own rules are sent when the model reads a file there, not with the prompt) or a skill
 * (`SKILL.md` under one of the skill folders). A change to one by the user (an upload, an edit in the viewer)
 * means the session's rules should be read again.
 */
export function isInstructionPath(path: string): boolean {
  const rel = path.replace(/^\/?workspace\//, "").replace(/^\.\//, "");
  if (!rel.includes("/")) return (RULE_FILE_NAMES as readonly string[]).includes(rel) || rel === LOCAL_RULES_NAME;
  return rel.endsWith("/SKILL.md") && SKILL_DIRS.some((dir) => rel.startsWith(`${dir}/`));
}
