import type { LLMAssistantContent, LLMMessage, LLMToolResult, LLMUserContent } from "../ports/llm";
import type { AssistantMessage, MessageWithParts, ToolPart, UserMessage } from "../schema";

export const CLEARED_TOOL_OUTPUT = "[Old tool result content cleared]";
export const INTERRUPTED_TOOL_OUTPUT = "[Tool execution was interrupted]";
export const COMPACTION_QUESTION = "What did we do so far?";

/** Hides messages at or after a soft revert point (spec §4.2). */
export function applyRevert(msgs: MessageWithParts[], revertMessageID: string | undefined): MessageWithParts[] {
  if (!revertMessageID) return msgs;
  return msgs.filter((m) => m.info.id < revertMessageID);
}

/**
 * The history visible after the last completed summary (spec §3.5).
 * Input and output are chronological.
 */
export function filterCompacted(msgs: MessageWithParts[]): MessageWithParts[] {
  const out: MessageWithParts[] = [];
  let summaryParent: string | undefined;
  let tailStart: string | undefined;
  let tailKept = false;
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (!m) continue;
    out.push(m);
    const info = m.info;
    if (info.role === "assistant" && info.summary && info.finish && !info.error && !summaryParent) summaryParent = info.parentID;
    if (tailStart !== undefined) {
      if (info.id <= tailStart) {
        // Ids sort chronologically: passing below the tail start (its message was deleted) ends the tail too.
        if (info.id < tailStart) out.pop();
        tailKept = true;
        break;
      }
      continue;
    }
    if (summaryParent && info.id === summaryParent) {
      const compaction = m.parts.find((p) => p.type === "compaction");
      if (compaction) {
        if (compaction.tail_start_id && compaction.tail_start_id < info.id) {
          tailStart = compaction.tail_start_id;
          continue;
        }
        break;
      }
    }
  }
  out.reverse();
  if (!tailKept || !summaryParent) return out;
  // Reorder: [compaction-user, summary, …tail…, …newer…]
  const cIdx = out.findIndex((m) => m.info.id === summaryParent);
  const sIdx = out.findIndex((m) => m.info.role === "assistant" && m.info.summary && m.info.parentID === summaryParent);
  const head = [out[cIdx], out[sIdx]].filter((m): m is MessageWithParts => m !== undefined);
  const rest = out.filter((_, i) => i !== cIdx && i !== sIdx);
  return [...head, ...rest];
}

export interface ToModelOptions {
  stripMedia?: boolean;
}

/** The text that stands in for a media attachment the model does not receive. */
export function mediaPlaceholder(mime: string, name: string | undefined): string {
  return `[Attached ${mime}: ${name ?? "file"}]`;
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
      if (opts.stripMedia && isMedia(p.mime)) content.push({ type: "text", text: mediaPlaceholder(p.mime, p.filename) });
      else content.push({ type: "file", mime: p.mime, url: p.url, filename: p.filename });
    } else if (p.type === "compaction") content.push({ type: "text", text: COMPACTION_QUESTION });
    else if (p.type === "subtask") content.push({ type: "text", text: "The following tool was executed by the user" });
  }
  return content;
}

/** Whether an assistant message is sent: errored ones are dropped unless aborted with real content. */
export function keepAssistant(m: MessageWithParts, info: AssistantMessage): boolean {
  if (!info.error) return true;
  if (info.error.name !== "MessageAbortedError") return false;
  return m.parts.some((p) => p.type === "text" || p.type === "tool");
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
      if (p.type === "text" && !p.ignored && p.text.length > 0) content.push({ type: "text", text: p.text, ...sentBack(p.metadata) });
      else if (p.type === "reasoning" && (p.text.length > 0 || sentBack(p.metadata).providerMetadata)) {
        // Reasoning with an empty text can still carry state the provider needs back (OpenAI's encrypted reasoning, Anthropic's redacted thinking).
        content.push({ type: "reasoning", text: p.text, ...sentBack(p.metadata) });
      } else if (p.type === "tool" && !isServerTool(p)) {
        content.push({ type: "tool-call", callID: p.callID, tool: p.tool, input: p.state.input, ...sentBack(p.metadata) });
        results.push(toolResult(p));
      }
    }
    if (content.length === 0) continue;
    out.push({ role: "assistant", content });
    if (results.length) out.push({ role: "tool", content: results });
  }
  return out;
}

/**
 * The provider state stored on a part (OpenAI reasoning item ids and encrypted
 * content, Anthropic thinking signatures, Gemini thought signatures), sent
 * back with it on the next request. Only provider-keyed objects are kept.
 */
export function sentBack(metadata: Record<string, unknown> | undefined): { providerMetadata?: Record<string, Record<string, unknown>> } {
  if (!metadata) return {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) out[key] = value as Record<string, unknown>;
  }
  return Object.keys(out).length > 0 ? { providerMetadata: out } : {};
}

/** The result a tool part sends back to the model (pruned output → placeholder; unfinished → interrupted). */
export function toolResult(p: ToolPart): LLMToolResult {
  const s = p.state;
  if (s.status === "completed") {
    let output = s.time.compacted ? CLEARED_TOOL_OUTPUT : s.output;
    if (!s.time.compacted && s.attachments?.length) output += `\n${s.attachments.map((a) => mediaPlaceholder(a.mime, a.filename)).join("\n")}`;
    return { type: "tool-result", callID: p.callID, tool: p.tool, output };
  }
  if (s.status === "error") {
    const partial = s.metadata?.interrupted && typeof s.metadata.output === "string" ? s.metadata.output : undefined;
    return { type: "tool-result", callID: p.callID, tool: p.tool, output: partial ?? s.error, isError: !partial };
  }
  return { type: "tool-result", callID: p.callID, tool: p.tool, output: INTERRUPTED_TOOL_OUTPUT, isError: true };
}

export interface Latest {
  lastUser?: MessageWithParts & { info: UserMessage };
  lastAssistant?: MessageWithParts & { info: AssistantMessage };
  lastFinished?: MessageWithParts & { info: AssistantMessage };
}

export function latest(msgs: MessageWithParts[]): Latest {
  const r: Latest = {};
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (!m) continue;
    const info = m.info;
    if (info.role === "user" && !r.lastUser) r.lastUser = { info, parts: m.parts };
    if (info.role === "assistant") {
      if (!r.lastAssistant) r.lastAssistant = { info, parts: m.parts };
      if (!r.lastFinished && info.finish) r.lastFinished = { info, parts: m.parts };
    }
    if (r.lastUser && r.lastAssistant && r.lastFinished) break;
  }
  return r;
}

/** Whether the loop is done: the newest user message has a finished answer with no tool call left open. */
export function isTurnDone(l: Latest): boolean {
  const a = l.lastAssistant;
  if (!a || !l.lastUser) return false;
  if (a.info.parentID !== l.lastUser.info.id) return false;
  if (a.info.error) return true;
  if (!a.info.finish) return false;
  return !hasUnreadToolResult(a.parts);
}

/**
 * Whether the model has not seen some tool result yet: any tool this answer
 * called (the results go back on the next request). This alone decides the
 * turn's end, whatever the finish reason says: servers report tool calls
 * with `stop` (Ollama, vLLM, Gemini's compatible endpoint) and a `tool-calls`
 * finish with no call of ours (a provider-run tool) leaves nothing to send.
 */
export function hasUnreadToolResult(parts: MessageWithParts["parts"]): boolean {
  return parts.some((p) => p.type === "tool" && !isServerTool(p));
}

/** Whether a tool part is one the provider ran itself (shown as a card; never executed by tabcode, never sent back as a tool result). */
export function isServerTool(p: ToolPart): boolean {
  return p.metadata?.providerExecuted === true;
}
