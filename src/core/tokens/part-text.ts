import type { MessageWithParts, Part } from "../schema";
import { COMPACTION_QUESTION, isMedia, keepAssistant, mediaPlaceholder, toolResult } from "../conversation/to-model";
import { estimateTokens } from "./counter";

/**
 * What each stored part contributes to a model request, mirroring
 * `toModelMessages` (conversation/to-model.ts) part by part, so a request's size is
 * the sum of per-part sizes that can be cached on the parts themselves.
 */

/** Tokens of an image sent to the model (tokenizers do not see pixels; a typical tile budget). */
export const IMAGE_TOKENS = 1_500;
/** Tokens of a PDF attachment (pages vary; a conservative flat figure). */
export const PDF_TOKENS = 2_000;
/** Role markers and separators around each model message (`<|start|>role…<|end|>`). */
export const MESSAGE_OVERHEAD = 4;
/** Tokens priming the model's reply, once per request. */
export const REPLY_OVERHEAD = 3;

/** A part's cost: text to tokenize (cacheable, plus a flat figure for media it carries), a flat figure (media), or nothing. */
export type PartCost = { kind: "text"; text: string; media?: number } | { kind: "fixed"; tokens: number } | { kind: "none" };

export interface PartCostOptions {
  /** Media becomes `[Attached mime: name]` text, as in summary requests. */
  stripMedia?: boolean;
}

const NONE: PartCost = { kind: "none" };

function text(t: string): PartCost {
  return t.length > 0 ? { kind: "text", text: t } : NONE;
}

/**
 * Tool parts' costs, by the part's `state` object (a part's state is replaced, never changed in place, when
 * a tool progresses or its output is pruned): building one means copying the whole output and serialising
 * the input, and a long session sizes every one of them before each step, two or three times.
 */
const toolCosts = new WeakMap<object, { tool: string; stripMedia: boolean; cost: PartCost }>();

/** The cost of one part of a message, given the message's role. */
export function partCost(part: Part, role: "user" | "assistant", opts: PartCostOptions = {}): PartCost {
  if (part.type !== "tool" || role !== "assistant") return uncachedCost(part, role, opts);
  const stripMedia = opts.stripMedia === true;
  const hit = toolCosts.get(part.state);
  if (hit && hit.tool === part.tool && hit.stripMedia === stripMedia) return hit.cost;
  const cost = uncachedCost(part, role, opts);
  toolCosts.set(part.state, { tool: part.tool, stripMedia, cost });
  return cost;
}

function uncachedCost(part: Part, role: "user" | "assistant", opts: PartCostOptions): PartCost {
  switch (part.type) {
    case "text":
      return part.ignored ? NONE : text(part.text);
    case "reasoning":
      return role === "assistant" ? text(part.text) : NONE;
    case "file": {
      if (role !== "user" || part.mime === "text/plain" || part.mime === "application/x-directory") return NONE;
      if (isMedia(part.mime) && !opts.stripMedia) return { kind: "fixed", tokens: part.mime === "application/pdf" ? PDF_TOKENS : IMAGE_TOKENS };
      if (isMedia(part.mime)) return text(mediaPlaceholder(part.mime, part.filename));
      // Other files go as data URLs the provider decodes: estimate the decoded size.
      return { kind: "fixed", tokens: estimateTokens(part.url) };
    }
    case "tool": {
      if (role !== "assistant") return NONE;
      // Counted as if every medium went as a part (the text keeps its placeholder lines): a bound for any model.
      const result = toolResult(part);
      const cost = text(`${part.tool}${JSON.stringify(part.state.input)}\n${result.output}`);
      const media = opts.stripMedia ? 0 : toolMediaTokens(part);
      return cost.kind === "text" && media > 0 ? { ...cost, media } : cost;
    }
    case "compaction":
      return role === "user" ? text(COMPACTION_QUESTION) : NONE;
    case "subtask":
      return role === "user" ? text("The following tool was executed by the user") : NONE;
    case "step-start":
    case "step-finish":
    case "snapshot":
    case "patch":
    case "agent":
    case "retry":
      return NONE;
  }
}

/** The flat cost of the images and PDFs a finished tool read (none once its output is pruned). */
function toolMediaTokens(part: Part & { type: "tool" }): number {
  const s = part.state;
  if (s.status !== "completed" || s.time.compacted) return 0;
  return (s.attachments ?? []).reduce((n, a) => n + (!isMedia(a.mime) ? 0 : a.mime === "application/pdf" ? PDF_TOKENS : IMAGE_TOKENS), 0);
}

/** Whether `toModelMessages` drops the whole message. */
export function isDropped(m: MessageWithParts): boolean {
  return m.info.role === "assistant" && !keepAssistant(m, m.info);
}

/** How many model messages a stored message becomes (assistant + tool results count as two). */
export function modelMessageCount(m: MessageWithParts, costs: PartCost[]): number {
  if (isDropped(m) || costs.every((c) => c.kind === "none")) return 0;
  if (m.info.role === "user") return 1;
  return m.parts.some((p) => p.type === "tool") ? 2 : 1;
}

type TokenCount = NonNullable<Part["tokenCount"]>;

/**
 * Counts made of part objects that do not carry them: the loop never changes a part the screen shows (its
 * run shares the screen's rows, copy-on-write), so an exact count made behind a request (`countBehind`)
 * is kept here, beside the very object counted, until storage has written it onto the screen's copy
 * (idle time, in slices: seconds on a long session). Without it the next send found the same parts
 * uncounted, sent on an estimate again and counted the whole history again, on 2 cores beside the send.
 */
const countedObjects = new WeakMap<Part, TokenCount>();

/** Remembers `count` as the count of this very part object (its text as it is now). */
export function rememberCount(part: Part, count: TokenCount): void {
  countedObjects.set(part, count);
}

/** A part's exact count for a text of `size` characters (in `encoding`, when given): its own or one remembered for it. */
export function knownCount(part: Part, size: number, encoding?: string): number | undefined {
  return fitting(part.tokenCount, size, encoding) ?? fitting(countedObjects.get(part), size, encoding);
}

function fitting(c: TokenCount | undefined, size: number, encoding: string | undefined): number | undefined {
  return c !== undefined && c.size === size && (encoding === undefined || c.encoding === encoding) ? c.count : undefined;
}

/** A part's count in `encoding` of whatever size (the calibration's chars per token): its own or one remembered for it. */
export function countIn(part: Part, encoding: string): TokenCount | undefined {
  if (part.tokenCount?.encoding === encoding) return part.tokenCount;
  const mine = countedObjects.get(part);
  return mine?.encoding === encoding ? mine : undefined;
}

/** A part's cached count, when it is fresh for `text` in `encoding`. */
export function cachedCount(part: Part, text: string, encoding: string): number | undefined {
  return knownCount(part, text.length, encoding);
}

/** Best-effort synchronous size of one message: cached counts when fresh, else estimates. */
export function messageTokens(m: MessageWithParts, encoding: string, opts: PartCostOptions = {}): { tokens: number; exact: boolean } {
  const role = m.info.role;
  const costs = m.parts.map((p) => partCost(p, role, opts));
  const n = modelMessageCount(m, costs);
  if (n === 0) return { tokens: 0, exact: true };
  let tokens = n * MESSAGE_OVERHEAD;
  let exact = true;
  costs.forEach((c, i) => {
    const part = m.parts[i];
    if (c.kind === "fixed") tokens += c.tokens;
    else if (c.kind === "text" && part) {
      tokens += c.media ?? 0;
      const cached = cachedCount(part, c.text, encoding);
      if (cached === undefined) exact = false;
      tokens += cached ?? estimateTokens(c.text);
    }
  });
  return { tokens, exact };
}
