/**
 * Project rules (spec §7.1): instruction files found in the workspace plus
 * the user's global rules from settings, each turned into its own system
 * prompt section `Instructions from: <path>\n<content>`.
 *
 * Candidate names in priority order: `AGENTS.md`, `CLAUDE.md`, `.cursorrules`.
 * For the first name that exists in any directory from the working directory
 * up to and including the workspace root, every file of that name on that path
 * is used, nearest (working directory) first, root last — as the reference
 * does — and no later name is tried: an `AGENTS.md` anywhere on the path hides
 * every `CLAUDE.md`. An existing but empty file still wins the name (an empty
 * `AGENTS.md` is a way to opt out) and adds no section.
 */
import type { FileEntry, SandboxFS } from "../ports/sandbox";
import { dirname, isInside, joinPath, normalizePath } from "../sandbox-path";
import { readTextFile } from "./read-text";

/** Instruction file names, in priority order. */
export const RULE_FILE_NAMES = ["AGENTS.md", "CLAUDE.md", ".cursorrules"] as const;
/** The user's own, uncommitted instructions: read in every directory where it exists, after the shared files. */
export const LOCAL_RULES_NAME = "AGENTS.local.md";

/** Label used for the global rules from settings. */
export const GLOBAL_RULES_LABEL = "tabcode settings (global rules)";

/** One loaded instruction file. */
export interface RulesFile {
  path: string;
  content: string;
}

export interface RulesDiscovery {
  /** System prompt sections, one per file (then the global rules). */
  sections: string[];
  /** Paths of the files that made sections (in order). */
  files: string[];
  /** Files that were skipped (unreadable, binary, too large). */
  warnings: string[];
}

export interface RulesOptions {
  /** Working directory (absolute). */
  cwd: string;
  /** Workspace root; the search stops there. */
  root: string;
  /** The user's global rules text from settings. */
  globalRules?: string;
}

/** A system prompt section for one instruction source. */
export function instructionSection(source: string, content: string): string {
  return `Instructions from: ${source}\n${content}`;
}

/** Directories from `cwd` up to and including `root` (just `root` when `cwd` is outside it). */
export function pathToRoot(cwd: string, root: string): string[] {
  const r = normalizePath(root);
  let d = normalizePath(cwd);
  if (!isInside(r, d)) return [r];
  const out = [d];
  while (d !== r) {
    d = dirname(d);
    out.push(d);
  }
  return out;
}

/** The entry of the file at `path`, or undefined when there is none (or a directory). */
async function fileAt(fs: SandboxFS, path: string): Promise<FileEntry | undefined> {
  try {
    const st = await fs.stat(path);
    return st?.type === "file" ? st : undefined;
  } catch {
    return undefined;
  }
}

/** Finds and reads the project's instruction files and the global rules. Never throws. */
export async function discoverRules(fs: SandboxFS | undefined, opts: RulesOptions): Promise<RulesDiscovery> {
  const out: RulesDiscovery = { sections: [], files: [], warnings: [] };
  if (fs) {
    const dirs = pathToRoot(opts.cwd, opts.root);
    // Every candidate is looked at at once: against a sandbox in a Worker each look is a round trip, and one
    // after the other they sat in the middle of a session's first request (one per name and folder).
    const names = [...RULE_FILE_NAMES, LOCAL_RULES_NAME];
    const found = await Promise.all(
      names.map(async (name) => {
        const entries = await Promise.all(dirs.map((d) => fileAt(fs, joinPath(d, name))));
        return entries.filter((e): e is FileEntry => e !== undefined);
      }),
    );
    // The first shared name found anywhere on the path wins (nearest first); the local files come after it.
    const shared = found.slice(0, RULE_FILE_NAMES.length).find((files) => files.length > 0) ?? [];
    const use = [...shared, ...(found[RULE_FILE_NAMES.length] ?? [])];
    const reads = await Promise.all(use.map(async (f) => ({ path: f.path, read: await readTextFile(fs, f.path, f) })));
    for (const { path, read } of reads) {
      if (!read.ok) out.warnings.push(read.warning);
      else if (read.content.trim()) {
        out.sections.push(instructionSection(path, read.content.trim()));
        out.files.push(path);
      }
    }
  }
  const global = opts.globalRules?.trim();
  if (global) out.sections.push(instructionSection(GLOBAL_RULES_LABEL, global));
  return out;
}
