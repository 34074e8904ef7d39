import { errorMessage } from "../errors";
import type { AssistantMessage, MessageWithParts, Part, Session } from "../schema";
import { conversationView } from "../conversation/view";
import { toolOutcome } from "../conversation/tool-outcome";
import { inertHtml, lowerHeadings } from "./message-markdown";

/** Options of the markdown transcript (spec §5.4). */
export interface MarkdownOptions {
  /** Include reasoning as `_Thinking:_` blocks. Default false. */
  thinking?: boolean;
  /** Include tool input and output/error as code blocks. Default false. */
  toolDetails?: boolean;
  /** Head assistant messages with agent · model · duration. Default true. */
  assistantMetadata?: boolean;
  /** Renders a timestamp; defaults to the locale string. */
  formatDate?: (ms: number) => string;
}

/** A code block whose fence is longer than any backtick run inside the content. */
export function fence(content: string, lang = ""): string {
  let longest = 0;
  for (const run of content.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const f = "`".repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${content}\n${f}`;
}

function titleCase(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** A name or message on one line of the transcript, its raw HTML as text (model and provider words are untrusted). */
function inline(s: string): string {
  return inertHtml(oneLine(s));
}

function assistantHeading(info: AssistantMessage, metadata: boolean): string {
  if (!metadata) return "## Assistant";
  const bits = [titleCase(info.agent), info.modelID];
  if (info.time.completed !== undefined) bits.push(`${((info.time.completed - info.time.created) / 1000).toFixed(1)}s`);
  return `## Assistant (${bits.map(inline).join(" · ")})`;
}

function toolBlock(p: Extract<Part, { type: "tool" }>, details: boolean): string {
  // A failure is flagged as the app's card says it ("✗ exit 1"), a stopped call too; a call that succeeded is not.
  const outcome = toolOutcome(p.state);
  const flag = outcome.tone === "failure" ? ` · ✗ ${outcome.label}` : outcome.tone === "ok" ? "" : ` · ${outcome.label}`;
  const out = [`**Tool: ${inline(p.tool)}**${flag}`];
  if (!details) return out.join("\n");
  out.push("", "**Input:**", "", fence(JSON.stringify(p.state.input, null, 2) ?? "{}", "json"));
  const s = p.state;
  if (s.status === "completed") out.push("", "**Output:**", "", fence(s.output));
  else if (s.status === "error") out.push("", "**Error:**", "", fence(s.error));
  return out.join("\n");
}

function partBlock(p: Part, opts: MarkdownOptions): string | undefined {
  switch (p.type) {
    case "text":
      // A message's own headings go below its `## User` / `## Assistant`, so the transcript's outline holds.
      // Raw HTML reads as text, so a renderer that allows HTML runs or shows none of it (code stays byte for byte).
      return p.synthetic || p.text.trim() === "" ? undefined : lowerHeadings(inertHtml(p.text), 3);
    case "reasoning":
      return opts.thinking && p.text.trim() !== "" ? `_Thinking:_\n\n${inertHtml(p.text)}` : undefined;
    case "tool":
      return toolBlock(p, opts.toolDetails === true);
    case "file":
      return `_Attached: ${inline(p.filename ?? "file")} (${inline(p.mime)})_`;
    case "subtask":
      return `**Subtask (${inline(p.agent)}):** ${inline(p.description)}`;
    case "compaction":
      return "_Asked for a summary of the conversation so far._";
    default:
      return undefined;
  }
}

function messageBlock(m: MessageWithParts, opts: MarkdownOptions): string {
  const info = m.info;
  const heading = info.role === "user" ? "## User" : assistantHeading(info, opts.assistantMetadata !== false);
  const blocks = [heading];
  for (const p of m.parts) {
    const b = partBlock(p, opts);
    if (b !== undefined) blocks.push(b);
  }
  if (info.role === "assistant" && info.error) blocks.push(`**Error:** ${inline(errorMessage(info.error))}`);
  return blocks.join("\n\n");
}

/**
 * The markdown transcript of a session: a header with title, id and dates,
 * then each message in order, separated by `---`. Messages hidden by a soft
 * revert are left out, as the UI hides them.
 */
export function sessionMarkdown(file: { info: Session; messages: readonly MessageWithParts[] }, opts: MarkdownOptions = {}): string {
  const date = opts.formatDate ?? ((ms: number) => new Date(ms).toLocaleString());
  const { info } = file;
  const head = [
    `# ${inline(info.title)}`,
    "",
    `**Session ID:** ${info.id}`,
    `**Created:** ${date(info.time.created)}`,
    `**Updated:** ${date(info.time.updated)}`,
  ].join("\n");
  const visible = conversationView(info, [...file.messages]).shown;
  const sections = [head, ...visible.map((m) => messageBlock(m, opts))];
  return `${sections.join("\n\n---\n\n")}\n`;
}
