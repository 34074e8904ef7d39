import type { LLMToolSpec } from "../ports/llm";
import type { CompactionPart, MessageWithParts } from "../schema";
import { isMedia } from "../conversation/to-model";
import type { ConversationView } from "../conversation/view";
import { estimateTokens } from "../tokens/counter";
import { isDropped, messageTokens } from "../tokens/part-text";
import { type CountMemo, toolSpecText } from "../tokens/request-size";
import { nextRequestSize } from "./next-request";
import type { CompactionSettings, ModelLimits } from "./overflow";

/**
 * Context X-ray: what the model would see on the next call, section by
 * section, for the UI. Pure and synchronous: uses cached part counts where
 * fresh and estimates elsewhere (`exact` says which).
 */

/** Where a message stands for the next call. */
export type XrayStatus =
  /** Sent to the model. */
  | "sent"
  /** Before the compaction boundary: replaced by the summary. */
  | "summarised"
  /** Hidden by a soft revert. */
  | "reverted"
  /** In the history but not sent (failed assistant message, nothing to send). */
  | "dropped";

export interface XraySection {
  kind: "system" | "tools" | "message";
  /** Stable key for rendering (`system:0`, `tools`, or the message id). */
  key: string;
  label: string;
  role?: "user" | "assistant";
  status: XrayStatus;
  /** Tokens this section costs on the next call (0 unless sent). */
  tokens: number;
  /** Tokens it costs when sent (for hidden sections: what it would cost). */
  size: number;
  /** False when some of it is estimated. */
  exact: boolean;
  /** The compaction summary / the compaction request / kept verbatim after a compaction. */
  summary?: boolean;
  /** For a summary: the model that wrote it and what writing it cost (at that model's prices). */
  writtenBy?: { modelID: string; cost: number };
  compaction?: boolean;
  tail?: boolean;
  /** Tool parts whose output is pruned. */
  pruned: number;
  /** Images and PDFs sent (flat cost each). */
  media: number;
}

export interface XrayInput {
  /** The session's conversation (`conversationView`): what is shown, sent and reverted. */
  view: Pick<ConversationView, "path" | "shown" | "sent">;
  system?: string[];
  tools?: LLMToolSpec[];
  model: ModelLimits;
  settings: CompactionSettings;
  /** `TokenCounter.encodingFor(modelID)`, to read cached part counts. */
  encoding: string;
  /** `Calibration.ratio(modelID)`; 1 when absent. */
  ratio?: number;
  /** Exact counts of system sections and tool specs, when the loop has them. */
  memo?: CountMemo;
  /** The extra message after the summary in force (core/pins/after-compaction), when there is one. */
  afterSummary?: string;
}

/**
 * What the request costs beyond its sections, so that the rows add up to `total`: the framing of the
 * request itself (the system message's markers and the reply's start: fixed figures) and the calibration
 * (our count scaled to what the provider billed for this model's earlier requests; may be negative).
 */
export interface XrayExtra {
  key: "framing" | "calibration";
  label: string;
  tokens: number;
  /** The calibration ratio applied (calibration only). */
  ratio?: number;
}

export interface Xray {
  /** System sections, tools, then hidden messages (chronological), sent messages (in sent order), reverted ones. */
  sections: XraySection[];
  /** The rest of `total`: Σ sections' `tokens` + Σ extras' `tokens` = `total`. Only the non-zero ones. */
  extras: XrayExtra[];
  /** Calibrated size of the next request. */
  total: number;
  /** Uncalibrated size. */
  raw: number;
  /** Every text was counted by the tokenizer (none estimated). The calibration is an estimate all the same. */
  exact: boolean;
  usable: number;
  /** Where auto-compaction starts. */
  overflowAt: number;
  contextWindow: number;
  /** `total / usable` (may exceed 1). */
  fraction: number;
  boundary?: { compactionID: string; summaryID: string; tailStartID?: string };
}

function plainSection(kind: "system" | "tools", key: string, label: string, texts: string[], input: XrayInput): XraySection {
  let tokens = 0;
  let exact = true;
  for (const text of texts) {
    const hit = input.memo?.get(input.encoding, text);
    if (hit === undefined) exact = false;
    tokens += hit ?? estimateTokens(text);
  }
  return { kind, key, label, status: "sent", tokens, size: tokens, exact, pruned: 0, media: 0 };
}

function boundaryOf(sent: MessageWithParts[]): Xray["boundary"] {
  for (const m of sent) {
    const info = m.info;
    if (info.role !== "assistant" || !info.summary || !info.finish || info.error) continue;
    const c = sent.find((r) => r.info.id === info.parentID)?.parts.find((p): p is CompactionPart => p.type === "compaction");
    return c ? { compactionID: info.parentID, summaryID: info.id, tailStartID: c.tail_start_id } : undefined;
  }
  return undefined;
}

/** The X-ray of the next call. */
export function contextXray(input: XrayInput): Xray {
  const sections: XraySection[] = [];
  (input.system ?? []).forEach((s, i) => {
    if (s.length > 0) sections.push(plainSection("system", `system:${i}`, i === 0 ? "System prompt (stable header)" : i === 1 ? "System prompt: environment, rules, pins, skills" : `System prompt ${i + 1}`, [s], input));
  });
  const tools = input.tools ?? [];
  if (tools.length) sections.push(plainSection("tools", "tools", `Tools (${tools.length})`, tools.map(toolSpecText), input));

  const { shown: visible, sent } = input.view;
  const sentIDs = new Set(sent.map((m) => m.info.id));
  const boundary = boundaryOf(sent);
  const message = (m: MessageWithParts, status: XrayStatus): XraySection => {
    const { tokens: size, exact } = messageTokens(m, input.encoding);
    const dropped = status === "sent" && (isDropped(m) || size === 0);
    const finalStatus = dropped ? "dropped" : status;
    const info = m.info;
    const isTail = boundary?.tailStartID !== undefined && info.id >= boundary.tailStartID && info.id < boundary.compactionID;
    return {
      kind: "message",
      key: info.id,
      label: info.role === "assistant" ? (info.summary ? "Summary" : `Assistant (${info.agent})`) : "User",
      role: info.role,
      status: finalStatus,
      tokens: finalStatus === "sent" ? size : 0,
      size,
      exact,
      summary: info.role === "assistant" && info.summary === true ? true : undefined,
      writtenBy: info.role === "assistant" && info.summary === true ? { modelID: info.modelID, cost: info.cost } : undefined,
      compaction: m.parts.some((p) => p.type === "compaction") ? true : undefined,
      tail: finalStatus === "sent" && isTail ? true : undefined,
      pruned: m.parts.filter((p) => p.type === "tool" && p.state.status === "completed" && p.state.time.compacted).length,
      media: info.role === "user" ? m.parts.filter((p) => p.type === "file" && isMedia(p.mime)).length : 0,
    };
  };
  for (const m of visible) if (!sentIDs.has(m.info.id)) sections.push(message(m, "summarised"));
  for (const m of sent) {
    sections.push(message(m, "sent"));
    // Right after the summary the request carries the user's earlier words and anything re-added.
    if (input.afterSummary && m.info.role === "assistant" && m.info.summary === true && m.info.id === boundary?.summaryID)
      sections.push(plainSection("system", "after-summary", "After the summary: your earlier words, re-added pins and files", [input.afterSummary], input));
  }
  for (const m of input.view.path.slice(visible.length)) sections.push(message(m, "reverted"));

  // The totals are the one count every view shows; the sections are its breakdown. The loop counts the
  // extra message after the summary with the system sections (ContextGuard.measure), so does this.
  const size = nextRequestSize({ ...input, sent, system: input.afterSummary ? [...(input.system ?? []), input.afterSummary] : input.system });
  // What the sections leave out of the total, as rows of their own: the sections are our counts, the total is calibrated.
  const counted = sections.reduce((n, s) => n + s.tokens, 0);
  const extras: XrayExtra[] = [];
  if (size.raw !== counted) extras.push({ key: "framing", label: "Request framing", tokens: size.raw - counted });
  if (size.total !== size.raw) extras.push({ key: "calibration", label: "Calibration", tokens: size.total - size.raw, ratio: input.ratio ?? 1 });
  return { sections, extras, total: size.total, raw: size.raw, exact: size.exact, usable: size.usable, overflowAt: size.overflowAt, contextWindow: size.contextWindow, fraction: size.fraction, boundary };
}
