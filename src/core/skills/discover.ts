/**
 * Skill discovery (spec §7.2): `SKILL.md` files found recursively under the
 * workspace's skill folders, plus skills defined in settings. Load order:
 * settings first, then the folders in `SKILL_DIRS` order (each sorted by
 * path); a later skill with the same name replaces the earlier one, with a
 * warning naming both locations. Invalid files are skipped with a warning
 * naming the file and the reason; nothing here throws.
 */
import type { FileEntry, SandboxFS } from "../ports/sandbox";
import { dirname, joinPath } from "../sandbox-path";
import { readTextFile } from "../rules/read-text";
import { parseFrontmatter } from "./frontmatter";

/** Folders (relative to the workspace root) searched for `**\/SKILL.md`. */
export const SKILL_DIRS = [".skills", ".opencode/skill", ".opencode/skills", ".claude/skills", ".agents/skills"] as const;

/** A loaded skill. */
export interface Skill {
  /** Lower-case, hyphen-separated, 1–64 characters. */
  name: string;
  /** When to use it (1–1024 characters). */
  description: string;
  /** The Markdown instructions (the file without its frontmatter). */
  body: string;
  /** Where it came from: the SKILL.md path, or `settings:skills/<name>`. */
  location: string;
  /** The skill's folder (workspace skills only); relative paths in the body resolve against it. */
  dir?: string;
}

/** A skill defined in the user's settings. */
export interface SettingsSkill {
  name: string;
  description: string;
  body: string;
}

export interface SkillDiscovery {
  /** Sorted by name. */
  skills: Skill[];
  warnings: string[];
}

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const MAX_FILES = 5_000;
const SKIP = new Set(["node_modules", ".git"]);

/** Why a name/description pair is invalid, or undefined when it is fine. */
export function validateSkill(name: unknown, description: unknown): string | undefined {
  if (typeof name !== "string" || name.trim() === "") return 'missing "name"';
  if (typeof description !== "string" || description.trim() === "") return 'missing "description"';
  const n = name.trim();
  if (n.length > 64) return `name "${n.slice(0, 64)}…" is longer than 64 characters`;
  if (!NAME.test(n)) return `name "${n}" must be lower-case letters, digits and single hyphens (like "pdf-tools")`;
  if (description.trim().length > 1024) return "description is longer than 1024 characters";
  return undefined;
}

/** Every `SKILL.md` below `dir` (sorted by path, with the entry its folder's listing gave), bounded by `MAX_FILES` visited entries. */
async function findSkillFiles(fs: SandboxFS, dir: string): Promise<FileEntry[]> {
  const found: FileEntry[] = [];
  const queue = [dir];
  let seen = 0;
  for (let d = queue.shift(); d !== undefined && seen < MAX_FILES; d = queue.shift()) {
    const entries = await fs.list(d).catch(() => []);
    for (const e of entries) {
      if (++seen > MAX_FILES) break;
      if (e.type === "directory" && !SKIP.has(e.name)) queue.push(e.path);
      else if (e.type === "file" && e.name === "SKILL.md") found.push(e);
    }
  }
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Reads one SKILL.md (`known`: its entry from the folder's listing): the skill, or a warning naming the file and the reason. */
export async function loadSkillFile(fs: SandboxFS, path: string, known?: FileEntry): Promise<{ ok: true; skill: Skill } | { ok: false; warning: string }> {
  const read = await readTextFile(fs, path, known);
  if (!read.ok) return { ok: false, warning: `Skipped skill ${read.warning}` };
  const fm = parseFrontmatter(read.content);
  if (!fm.ok) return { ok: false, warning: `Skipped skill ${path}: invalid frontmatter: ${fm.error}` };
  const { name, description } = fm.data;
  const invalid = validateSkill(name, description);
  if (invalid || typeof name !== "string" || typeof description !== "string") return { ok: false, warning: `Skipped skill ${path}: ${invalid ?? "invalid"}` };
  return { ok: true, skill: { name: name.trim(), description: description.trim(), body: fm.body.trim(), location: path, dir: dirname(path) } };
}

/** Finds the workspace's skills and merges the settings' skills. */
export async function discoverSkills(fs: SandboxFS | undefined, root: string, fromSettings: SettingsSkill[] = []): Promise<SkillDiscovery> {
  const warnings: string[] = [];
  const byName = new Map<string, Skill>();
  const add = (skill: Skill) => {
    const existing = byName.get(skill.name);
    if (existing) warnings.push(`Duplicate skill name "${skill.name}": ${skill.location} replaces ${existing.location}`);
    byName.set(skill.name, skill);
  };
  for (const s of fromSettings) {
    const location = `settings:skills/${s.name}`;
    const invalid = validateSkill(s.name, s.description);
    if (invalid) warnings.push(`Skipped skill ${location}: ${invalid}`);
    else add({ name: s.name.trim(), description: s.description.trim(), body: s.body.trim(), location });
  }
  if (fs) {
    // The folders are looked at, and their files read, all at once (each look is a round trip to a sandbox in a
    // Worker); the results are taken in `SKILL_DIRS` order, so which skill replaces which is unchanged.
    const loaded = await Promise.all(
      SKILL_DIRS.map(async (d) => {
        const dir = joinPath(root, d);
        const st = await fs.stat(dir).catch(() => undefined);
        if (st?.type !== "directory") return [];
        return Promise.all((await findSkillFiles(fs, dir)).map((f) => loadSkillFile(fs, f.path, f)));
      }),
    );
    for (const r of loaded.flat()) {
      if (r.ok) add(r.skill);
      else warnings.push(r.warning);
    }
  }
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, warnings };
}
