import type { MessageWithParts, ToolPart } from "../schema";
import { toolMeaning } from "../conversation/tool-meaning";
import { CLEARED_TOOL_OUTPUT, INTERRUPTED_TOOL_OUTPUT, isMedia, keepAssistant, mediaPlaceholder } from "../conversation/to-model";

/**
 * The head of a session as a plain transcript for the summary request
 * (spec §3.4, later refinements), and the tool log the summary's
 * "Relevant files" and "Commands run" sections are built from.
 */

/** Tool outputs (and long inputs) are cut to this many characters in the transcript. */
export const TRANSCRIPT_TOOL_CHARS = 2_000;
export const TRUNCATED = "[truncated]";

function cut(text: string, max = TRANSCRIPT_TOOL_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}\n${TRUNCATED}` : text;
}

function toolLines(p: ToolPart): string[] {
  const s = p.state;
  const lines = [`[Assistant tool call]: ${p.tool}(${cut(JSON.stringify(s.input))})`];
  if (s.status === "completed") {
    lines.push(`[Tool result]: ${s.time.compacted ? CLEARED_TOOL_OUTPUT : cut(s.output)}`);
    if (!s.time.compacted) for (const a of s.attachments ?? []) lines.push(mediaPlaceholder(a.mime, a.filename));
  } else if (s.status === "error") {
    const partial = s.metadata?.interrupted && typeof s.metadata.output === "string" ? s.metadata.output : undefined;
    lines.push(partial ? `[Tool result]: ${cut(partial)}` : `[Tool error]: ${cut(s.error)}`);
  } else lines.push(`[Tool error]: ${INTERRUPTED_TOOL_OUTPUT}`);
  return lines;
}

/** `[User]: …`, `[Assistant]: …`, `[Assistant tool call]: name(json)`, `[Tool result]: …`, `[Attached mime: name]`, one entry per paragraph. */
export function serializeTranscript(msgs: MessageWithParts[]): string {
  const out: string[] = [];
  for (const m of msgs) {
    const info = m.info;
    if (info.role === "assistant" && !keepAssistant(m, info)) continue;
    for (const p of m.parts) {
      if (info.role === "user") {
        if (p.type === "text" && !p.ignored && p.text.trim()) out.push(`[User]: ${p.text}`);
        else if (p.type === "file" && p.mime !== "application/x-directory") out.push(mediaPlaceholder(p.mime, p.filename));
        else if (p.type === "subtask") out.push(`[User]: ${p.description}`);
        continue;
      }
      if (p.type === "text" && !p.ignored && p.text.trim()) out.push(`[Assistant]: ${p.text}`);
      else if (p.type === "reasoning" && p.text.trim()) out.push(`[Assistant reasoning]: ${cut(p.text)}`);
      else if (p.type === "tool") out.push(...toolLines(p));
    }
  }
  return out.join("\n\n");
}

/** Media a summary request may carry as files (images, PDFs of user messages and tool results). */
export function mediaOf(msgs: MessageWithParts[]): { mime: string; url: string; filename?: string }[] {
  const out: { mime: string; url: string; filename?: string }[] = [];
  for (const m of msgs) {
    if (m.info.role === "assistant" && !keepAssistant(m, m.info)) continue;
    for (const p of m.parts) {
      if (p.type === "file" && m.info.role === "user" && isMedia(p.mime)) out.push({ mime: p.mime, url: p.url, filename: p.filename });
      if (p.type === "tool" && p.state.status === "completed" && !p.state.time.compacted)
        for (const a of p.state.attachments ?? []) if (isMedia(a.mime)) out.push(a);
    }
  }
  return out;
}

/** Files touched and commands run, in first-seen order. */
export interface ToolLog {
  /** Path → actions (`read`, `edited`, `written`, `searched`, `changed`: by a command, as the step's patch shows). */
  files: Map<string, Set<string>>;
  commands: string[];
}

/** Files a patch may show that nobody works on by hand: git's own store, installed packages, bytecode caches. */
const MACHINERY = /(^|\/)(\.git|node_modules|__pycache__)\//;

/**
 * Reads the tool calls of `msgs` that did something (not failed ones, nor ones stopped before they ran or while they
 * waited for approval), and the files each step changed (its `patch` part, paths relative to the workspace `root`):
 * a file a command or script changed is listed as `changed` unless a tool call already named it. Files are named as
 * the workspace names them (`workspaceRelative`), also those of `into` (a previous summary's list may name them
 * absolute).
 */
export function toolLog(msgs: MessageWithParts[], into: ToolLog = { files: new Map(), commands: [] }, root = "/workspace"): ToolLog {
  for (const [path, actions] of [...into.files]) {
    const rel = workspaceRelative(root, path);
    if (rel === path) continue;
    into.files.delete(path);
    into.files.set(rel, new Set([...(into.files.get(rel) ?? []), ...actions]));
  }
  for (const m of msgs) {
    for (const p of m.parts) {
      if (p.type === "patch") {
        for (const f of p.files) {
          if (MACHINERY.test(f)) continue;
          const path = workspaceRelative(root, f);
          const set = into.files.get(path);
          if (!set) into.files.set(path, new Set(["changed"]));
          else if (!set.has("edited") && !set.has("written")) set.add("changed");
        }
        continue;
      }
      if (p.type !== "tool" || p.state.status === "pending") continue;
      // A call that failed did nothing to list (an edit of a missing file, a denied command); one cut while it
      // ran did part of its work.
      if (p.state.status === "error" && (!p.state.metadata?.interrupted || p.state.metadata.notStarted || p.state.metadata.awaitingApproval)) continue;
      // Any agent's tools (an imported history's too): what the call did to which files, which command it ran.
      const { files, command } = toolMeaning(p.tool, p.state.input);
      for (const f of files) {
        // One name per file, whether the tool was given it relative or absolute (and the patches' names).
        const path = workspaceRelative(root, f.path);
        const set = into.files.get(path) ?? new Set<string>();
        set.add(f.action);
        into.files.set(path, set);
      }
      if (command) addCommand(into, command);
    }
  }
  return into;
}

/**
 * `given` (relative to the workspace or absolute) as the workspace names it: relative to the root, without `.`
 * segments or a trailing slash (`.` for the root itself); a path outside the workspace stays absolute.
 */
function workspaceRelative(root: string, given: string): string {
  const base = root.replace(/\/+$/, "");
  const abs = given.startsWith("/") ? given : `${base}/${given}`;
  const out: string[] = [];
  for (const seg of abs.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  const path = `/${out.join("/")}`;
  if (path === base) return ".";
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
}

function addCommand(log: ToolLog, command: string): void {
  const line = command.replace(/\s*\n\s*/g, " ⏎ ");
  const i = log.commands.indexOf(line);
  if (i >= 0) log.commands.splice(i, 1);
  log.commands.push(line);
}

export const FILES_HEADING = "## Relevant files";
export const COMMANDS_HEADING = "## Commands run";
/** At most this many files and commands are listed (the most recent commands win). */
export const MAX_FILES = 60;
export const MAX_COMMANDS = 40;

/** The code-built sections appended to every summary. */
export function renderToolLog(log: ToolLog): string {
  const files = [...log.files].slice(-MAX_FILES).map(([path, actions]) => `- ${path} (${[...actions].join(", ")})`);
  const commands = log.commands.slice(-MAX_COMMANDS).map((c) => `- \`${c.length > 300 ? `${c.slice(0, 300)}…` : c}\``);
  return [FILES_HEADING, ...(files.length ? files : ["(none)"]), "", COMMANDS_HEADING, ...(commands.length ? commands : ["(none)"])].join("\n");
}

/** Splits a summary into the model's text and the tool log a previous compaction appended. */
export function splitSummary(text: string): { body: string; log: ToolLog } {
  const log: ToolLog = { files: new Map(), commands: [] };
  const body: string[] = [];
  let section: "body" | "files" | "commands" = "body";
  for (const line of text.split("\n")) {
    const heading = /^#{1,6}\s/.test(line) ? line.trim() : undefined;
    if (heading !== undefined) {
      const lower = heading.replace(/^#+\s*/, "").toLowerCase();
      section = lower.startsWith("relevant files") ? "files" : lower.startsWith("commands run") ? "commands" : "body";
    }
    if (section === "body") body.push(line);
    else if (heading === undefined && line.startsWith("- ")) {
      const item = line.slice(2);
      if (section === "files") {
        const match = /^(.*) \(([^()]*)\)$/.exec(item);
        const path = match?.[1] ?? item;
        log.files.set(path, new Set(match?.[2] ? match[2].split(", ") : []));
      } else if (section === "commands") log.commands.push(item.replace(/^`|`$/g, ""));
    }
  }
  return { body: body.join("\n").trim(), log };
}
