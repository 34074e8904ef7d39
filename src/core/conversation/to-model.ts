import type { MediaFilter } from "../model-media";
import type { LLMAssistantContent, LLMMedia, LLMMessage, LLMToolResult, LLMUserContent } from "../ports/llm";
import type { AssistantMessage, MessageWithParts, ToolPart } from "../schema";
import { providerCompactionOf } from "./provider-compaction";
import { isServerTool } from "./server-tool";
import { isCutOff } from "../errors";

export const CLEARED_TOOL_OUTPUT = "[Old tool result content cleared]";
export const INTERRUPTED_TOOL_OUTPUT = "[Tool execution was interrupted]";
export const COMPACTION_QUESTION = "What did we do so far?";

export interface ToModelOptions {
  stripMedia?: boolean;
  /**
   * Which media read by tools the model receives as media parts of the tool
   * result (`toolResultMedia(model)`); the rest, and everything when absent or
   * with `stripMedia`, becomes a placeholder line in the result's text.
   */
  toolMedia?: MediaFilter;
  /** `false`: the model takes no images; user images become a placeholder saying so. */
  images?: boolean;
}

/** The text that stands in for a user's image a model without image input does not receive. */
export function noImagePlaceholder(mime: string, name: string | undefined): string {
  return `[Attached ${mime}: ${name ?? "image"} — not sent, this model does not accept images]`;
}

/** The text that stands in for a media attachment the model does not receive. */
export function mediaPlaceholder(mime: string, name: string | undefined): string {
  return `[Attached ${mime}: ${name ?? "file"}]`;
}

/**
 * Whether an attachment carries its data (a `data:` URL). Imports and shares
 * may carry anything: a `file:` path of another machine or a relative one
 * would fail every later request, an `http(s):` one would be fetched from the
 * page. Those reach the model as a placeholder.
 */
export function isReadableURL(url: string): boolean {
  return /^data:[^,]*,/i.test(url);
}

/** The text that stands in for an attachment whose data cannot be read. */
export function unreadablePlaceholder(mime: string, name: string | undefined): string {
  return `[Attached ${mime}: ${name ?? "file"} (its data could not be read)]`;
}

/** Images and PDFs: the attachments `stripMedia` replaces by a placeholder. */
export function isMedia(mime: string): boolean {
  return mime.startsWith("image/") || mime === "application/pdf";
}

function userContent(m: MessageWithParts, opts: ToModelOptions): LLMUserContent[] {
  const content: LLMUserContent[] = [];
  for (const p of m.parts) {
    if (p.type === "text" && !p.ignored && p.text.length > 0) content.push({ type: "text", text: p.text });
    else if (p.type === "file") {
      if (p.mime === "text/plain" || p.mime === "application/x-directory") continue;
      if (!isReadableURL(p.url)) content.push({ type: "text", text: unreadablePlaceholder(p.mime, p.filename) });
      else if (opts.images === false && p.mime.startsWith("image/")) content.push({ type: "text", text: noImagePlaceholder(p.mime, p.filename) });
      else if (opts.stripMedia && isMedia(p.mime)) content.push({ type: "text", text: mediaPlaceholder(p.mime, p.filename) });
      else content.push({ type: "file", mime: p.mime, url: p.url, filename: p.filename });
    } else if (p.type === "compaction") content.push({ type: "text", text: COMPACTION_QUESTION });
    else if (p.type === "subtask") content.push({ type: "text", text: "The following tool was executed by the user" });
  }
  return content;
}

/**
 * Whether an assistant message is sent: errored ones are dropped unless cut off with real content (stopped,
 * out of output tokens, its stream ended early: `isCutOff`). OpenCode keeps only stopped ones; a cut answer
 * is what Continue asks the model to go on from, so it must see it.
 */
export function keepAssistant(m: MessageWithParts, info: AssistantMessage): boolean {
  // A summary counts only when it finished: a stopped or failed one's partial text is never sent.
  if (info.summary && (info.error || !info.finish)) return false;
  if (!info.error) return true;
  if (!isCutOff(info.error.name)) return false;
  return m.parts.some((p) => p.type === "text" || p.type === "tool");
}

/**
 * The provider metadata a text, reasoning or tool part carries (reasoning
 * signatures, encrypted reasoning, item ids, thought signatures), sent back so
 * the provider can continue its own state: the `{ provider: { … } }` entries
 * of the part's metadata (tabcode's own flags are not objects and stay home).
 */
export function providerMetadata(metadata: Record<string, unknown> | undefined): { providerMetadata?: Record<string, unknown> } {
  if (!metadata) return {};
  const entries = Object.entries(metadata).filter(([, v]) => v !== null && typeof v === "object" && !Array.isArray(v));
  return entries.length ? { providerMetadata: Object.fromEntries(entries) } : {};
}

/** Converts stored history to provider-neutral model messages (spec §2.6). */
export function toModelMessages(msgs: MessageWithParts[], opts: ToModelOptions = {}): LLMMessage[] {
  const out: LLMMessage[] = [];
  for (const m of msgs) {
    if (m.info.role === "user") {
      const content = userContent(m, opts);
      if (content.length) out.push({ role: "user", content });
      continue;
    }
    if (!keepAssistant(m, m.info)) continue;
    const content: LLMAssistantContent[] = [];
    const results: LLMToolResult[] = [];
    for (const p of m.parts) {
      // A provider's compaction goes back as it came, even with no readable text (OpenAI's is encrypted).
      if (p.type === "text" && !p.ignored && (p.text.length > 0 || providerCompactionOf(p)))
        content.push({ type: "text", text: p.text, ...providerMetadata(p.metadata) });
      else if (p.type === "reasoning" && (p.text.length > 0 || providerMetadata(p.metadata).providerMetadata)) {
        // Reasoning with an empty text can still carry state the provider needs back (OpenAI's encrypted reasoning, Anthropic's redacted thinking).
        content.push({ type: "reasoning", text: p.text, ...providerMetadata(p.metadata) });
      } else if (p.type === "tool" && !isServerTool(p)) {
        // Provider state on the call (Gemini thought signatures, OpenAI item ids) goes back with it.
        content.push({ type: "tool-call", callID: p.callID, tool: p.tool, input: p.state.input, ...providerMetadata(p.metadata) });
        results.push(toolResult(p, opts));
      }
    }
    if (content.length === 0) continue;
    out.push({ role: "assistant", content });
    if (results.length) out.push({ role: "tool", content: results });
  }
  return out;
}

/** The base64 payload of a `data:<mime>;base64,…` URL (the only media a tool result sends: nothing to fetch). */
export function base64Payload(url: string): string | undefined {
  const m = /^data:[^,;]*(?:;[^,;]*)*;base64,/i.exec(url);
  return m ? url.slice(m[0].length) : undefined;
}

/**
 * The result a tool part sends back to the model (pruned output → placeholder;
 * unfinished → interrupted). Media it read go as media parts where
 * `opts.toolMedia` takes them, else as placeholder lines; a pruned result
 * sends neither.
 */
export function toolResult(p: ToolPart, opts: ToModelOptions = {}): LLMToolResult {
  const s = p.state;
  if (s.status === "completed") {
    if (s.time.compacted) return { type: "tool-result", callID: p.callID, tool: p.tool, output: CLEARED_TOOL_OUTPUT };
    let output = s.output;
    const media: LLMMedia[] = [];
    for (const a of s.attachments ?? []) {
      const data = !opts.stripMedia && opts.toolMedia?.(a.mime) && isMedia(a.mime) ? base64Payload(a.url) : undefined;
      if (data !== undefined) media.push({ mime: a.mime, data, ...(a.filename ? { filename: a.filename } : {}) });
      else output += `\n${mediaPlaceholder(a.mime, a.filename)}`;
    }
    return { type: "tool-result", callID: p.callID, tool: p.tool, output, ...(media.length ? { media } : {}) };
  }
  if (s.status === "error") {
    const partial = s.metadata?.interrupted && typeof s.metadata.output === "string" ? s.metadata.output : undefined;
    return { type: "tool-result", callID: p.callID, tool: p.tool, output: partial ?? s.error, isError: !partial };
  }
  return { type: "tool-result", callID: p.callID, tool: p.tool, output: INTERRUPTED_TOOL_OUTPUT, isError: true };
}
