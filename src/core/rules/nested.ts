/**
 * Lazy nested rules (spec §7.1): when the `read` tool reads a file, the
 * instruction files of the directories between that file and the workspace
 * root are appended to its output inside `<system-reminder>`, once per
 * session. The root itself is not searched: its rules are in the system prompt.
 */
import type { SandboxFS } from "../ports/sandbox";
import { dirname, isInside, joinPath, normalizePath } from "../sandbox-path";
import type { MessageWithParts } from "../schema";
import { instructionSection, LOCAL_RULES_NAME, type RulesFile } from "./discover";
import { readTextFile } from "./read-text";

/** Names looked for in each directory (the first existing one is used). */
export const NESTED_RULE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

/** `ToolContext.state` key of the session's set of instruction files already shown. */
export const LOADED_RULES_KEY = "loaded-rules";
/** `ToolContext.state` key of the instruction files the system prompt carries (always shown). */
export const SYSTEM_RULES_KEY = "system-rules";

/**
 * The session's set of instruction files already shown to the model, kept in
 * `state` (the tool context's per-session map). Seed it with the system
 * prompt's files (`startupReport().rulesFiles`) so they are not repeated.
 */
export function loadedRules(state: Map<string, unknown>, seed: Iterable<string> = []): Set<string> {
  let set = state.get(LOADED_RULES_KEY);
  if (!(set instanceof Set)) {
    set = new Set<string>();
    state.set(LOADED_RULES_KEY, set);
  }
  const loaded = set as Set<string>;
  let system = state.get(SYSTEM_RULES_KEY);
  if (!(system instanceof Set)) {
    system = new Set<string>();
    state.set(SYSTEM_RULES_KEY, system);
  }
  for (const p of seed) {
    loaded.add(normalizePath(p));
    (system as Set<string>).add(normalizePath(p));
  }
  return loaded;
}

/**
 * Makes "already shown" mean "the model can still see it": the system
 * prompt's files, plus the files carried by `read` outputs that are still in
 * the history being sent (not pruned, not summarised away). A nested
 * AGENTS.md whose read was pruned is then shown again by the next read below it.
 */
export function syncShownRules(state: Map<string, unknown>, sent: readonly MessageWithParts[]): void {
  const loaded = loadedRules(state);
  const system = state.get(SYSTEM_RULES_KEY);
  loaded.clear();
  if (system instanceof Set) for (const p of system) loaded.add(p as string);
  for (const m of sent)
    for (const p of m.parts) {
      if (p.type !== "tool" || p.tool !== "read" || p.state.status !== "completed" || p.state.time.compacted) continue;
      const files = p.state.metadata.loaded;
      if (Array.isArray(files)) for (const f of files) if (typeof f === "string") loaded.add(normalizePath(f));
    }
}

export interface NestedRules {
  /** Newly found files, nearest directory first. */
  files: RulesFile[];
  warnings: string[];
}

/**
 * Instruction files from `filePath`'s directory up to, but not including,
 * `root`, skipping those in `alreadyLoaded` and the file itself. Every file
 * found (even an empty or unreadable one) is added to `alreadyLoaded`, so a
 * file is reported once per session. Never throws.
 */
export async function nestedRulesFor(fs: SandboxFS, filePath: string, root: string, alreadyLoaded: Set<string>): Promise<NestedRules> {
  const out: NestedRules = { files: [], warnings: [] };
  const r = normalizePath(root);
  const file = normalizePath(filePath);
  if (!isInside(r, file) || file === r) return out;
  const take = async (p: string) => {
    if (p === file || alreadyLoaded.has(p)) return;
    const st = await fs.stat(p).catch(() => undefined);
    if (st?.type !== "file") return;
    alreadyLoaded.add(p);
    const read = await readTextFile(fs, p);
    if (!read.ok) out.warnings.push(read.warning);
    else if (read.content.trim()) out.files.push({ path: p, content: read.content.trim() });
  };
  for (let d = dirname(file); d !== r && isInside(r, d); d = dirname(d)) {
    for (const name of NESTED_RULE_NAMES) {
      const p = joinPath(d, name);
      const st = await fs.stat(p).catch(() => undefined);
      if (st?.type !== "file") continue;
      await take(p);
      break;
    }
    await take(joinPath(d, LOCAL_RULES_NAME));
  }
  return out;
}

/** The text the `read` tool appends to its output (empty when there is nothing new). */
export function systemReminder(files: RulesFile[]): string {
  if (files.length === 0) return "";
  return `<system-reminder>\n${files.map((f) => instructionSection(f.path, f.content)).join("\n\n")}\n</system-reminder>`;
}
