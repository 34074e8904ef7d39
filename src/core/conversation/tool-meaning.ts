/**
 * What a tool call did, whatever agent made it: tabcode's and OpenCode's own tools, and the names and inputs of
 * the histories tabcode imports (Claude Code `Bash`/`Read`/`Edit`/`Write`, Codex `shell` with an argv,
 * `exec_command`, `apply_patch`, Gemini CLI `run_shell_command`/`read_file`/`replace`/`write_file`). The tool log
 * (Files touched, Commands run, the summaries' Relevant files) and the Terminal read calls through this.
 */

export type FileAction = "read" | "edited" | "written" | "searched";

export interface ToolMeaning {
  /** What it did to files, and which (as the call named them; a search without a path searched "."). */
  files: { action: FileAction; path: string }[];
  /** The shell command it ran. */
  command?: string;
}

const READ = new Set(["read", "read_file"]);
const EDIT = new Set(["edit", "multiedit", "replace", "str_replace_editor", "str_replace_based_edit_tool"]);
const WRITE = new Set(["write", "write_file", "create_file"]);
const SEARCH = new Set(["glob", "grep", "search_file_content"]);
const SHELL = new Set(["bash", "shell", "exec_command", "run_shell_command", "local_shell", "container.exec"]);

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
}

/** A file path under any of the names agents give it. */
function pathOf(input: Record<string, unknown>): string | undefined {
  return str(input.filePath) ?? str(input.file_path) ?? str(input.absolute_path) ?? str(input.notebook_path) ?? str(input.path);
}

/** A command given as a string, or as an argv (`["bash", "-lc", "npm test"]` is the command `npm test`). */
function commandOf(input: Record<string, unknown>): string | undefined {
  const c = input.command ?? input.cmd;
  if (typeof c === "string") return str(c);
  if (!Array.isArray(c) || !c.every((x) => typeof x === "string")) return undefined;
  const argv = c as string[];
  if (argv.length === 3 && /^(?:ba|z|)sh$/.test(argv[0]?.split("/").at(-1) ?? "") && /^-l?c$/.test(argv[1] ?? "")) return str(argv[2]);
  return str(argv.join(" "));
}

/** The files a Codex `apply_patch` names (`*** Add File: a.ts`, `*** Update File:`, `*** Delete File:`). */
function patchFiles(input: Record<string, unknown>): string[] {
  const text = str(input.input) ?? str(input.patch) ?? "";
  return [...text.matchAll(/^\*\*\* (?:Add|Update|Delete) File: (.+)$/gm)].map((m) => (m[1] ?? "").trim()).filter(Boolean);
}

export function toolMeaning(tool: string, input: Record<string, unknown>): ToolMeaning {
  const name = tool.toLowerCase();
  if (SHELL.has(name)) {
    const command = commandOf(input);
    return command ? { files: [], command } : { files: [] };
  }
  if (name === "apply_patch") return { files: patchFiles(input).map((path) => ({ action: "edited", path })) };
  const path = pathOf(input);
  if (SEARCH.has(name)) return { files: [{ action: "searched", path: path ?? "." }] };
  const action: FileAction | undefined = READ.has(name) ? "read" : EDIT.has(name) ? "edited" : WRITE.has(name) ? "written" : undefined;
  return action && path ? { files: [{ action, path }] } : { files: [] };
}
