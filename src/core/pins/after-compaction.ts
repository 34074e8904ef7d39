/**
 * What a compacted request carries besides the summary, and the check that
 * nothing pinned was lost. After a summary, the next request gets one extra
 * user message right after the summary (before the kept tail): the user's own
 * earlier words (`keptUserWords`), plus whatever pin or touched file the rest
 * of the request does not hold (re-injected). The check is deterministic: a
 * pin is present when its text is in the request, a file when its path is.
 */
import type { ModelLimits } from "../compaction/overflow";
import { summaryInForce, withAfterSummary } from "../compaction/after-summary";
import { toolLog } from "../compaction/transcript";
import { toModelMessages, type ToModelOptions } from "../conversation/to-model";
import type { ConversationView } from "../conversation/view";
import type { LLMMessage } from "../ports/llm";
import type { Store } from "../ports/store";
import type { CompactionCheck, MessageWithParts, Pin, Session } from "../schema";
import { estimateTokens } from "../tokens/counter";
import { escapeRegex } from "../util/safe-regex";
import { activePins, effectivePins } from "./pins";
import { keptUserWords, USER_WORDS_HEADING, userWordsBudget } from "./user-words";

const REINJECTED_HEADING = "Re-added after the summary (the request no longer held them):";

/** Whether a user message's text is the extra message after a summary (not something the user just asked). */
export function isAfterSummaryText(text: string): boolean {
  return text.startsWith(USER_WORDS_HEADING) || text.startsWith(REINJECTED_HEADING);
}

export interface AfterCompaction {
  /** The text of the extra user message (after the summary), or undefined when nothing is added. */
  text?: string;
  /** The check of pins and files against the request (undefined when no summary is in force). */
  check?: CompactionCheck;
}


/** Every text a request sends (system sections, message texts, tool calls and results). */
export function requestText(system: string[], messages: LLMMessage[]): string {
  const out = [...system];
  for (const m of messages)
    for (const c of m.content) {
      if (c.type === "text" || c.type === "reasoning") out.push(c.text);
      else if (c.type === "tool-call") out.push(`${c.tool} ${JSON.stringify(c.input)}`, ...(c.input && typeof c.input === "object" ? Object.values(c.input).filter((v): v is string => typeof v === "string") : []));
      else if (c.type === "tool-result") out.push(c.output);
    }
  return out.join("\n");
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

export interface AfterCompactionInput {
  /** The shown branch as stored (nothing summarised away). */
  history: MessageWithParts[];
  /** What the request sends (summary first). */
  sent: MessageWithParts[];
  /** The request as built so far: system sections and messages (without the extra message). */
  system: string[];
  messages: LLMMessage[];
  /** The session's pins (`effectivePins`). */
  pins: Pin[];
  count: (text: string) => number;
  /** The session's model: the words' budget scales with its window (`userWordsBudget`). */
  model: ModelLimits;
  /** Overrides the budget of the user's earlier words (tests). */
  budget?: number;
  now: number;
}

/** Tokens of the summary a request starts with (what `userWordsBudget` leaves room for). */
export function summaryTokens(sent: MessageWithParts[], count: (text: string) => number): number {
  const s = sent[1];
  if (s?.info.role !== "assistant" || !s.info.summary) return 0;
  return count(s.parts.map((p) => (p.type === "text" && !p.ignored ? p.text : "")).join("\n"));
}

/** The extra message after a summary and the check of pins and files (nothing when no summary is in force). */
export function afterCompaction(input: AfterCompactionInput): AfterCompaction {
  if (!summaryInForce(input.sent)) return {};
  const budget = input.budget ?? userWordsBudget(input.model, summaryTokens(input.sent, input.count));
  const words = keptUserWords(input.history, input.sent, input.count, budget);
  const haystack = squash(`${requestText(input.system, input.messages)}\n${words?.text ?? ""}`);
  const pins = activePins(input.pins);
  const missingPins = pins.filter((p) => !haystack.includes(squash(p.text)));
  const files = [...toolLog(input.history).files];
  // (The workspace itself, "." for a search over all of it, is no file to re-add.)
  const missingFiles = files.filter(([path]) => path !== "." && !mentions(haystack, path));
  const lines: string[] = [];
  if (missingPins.length || missingFiles.length) {
    lines.push(REINJECTED_HEADING);
    const goal = missingPins.find((p) => p.kind === "goal");
    if (goal) lines.push(`Goal: ${goal.text}`);
    const rules = missingPins.filter((p) => p.kind === "constraint");
    if (rules.length) lines.push("Constraints and preferences:", ...rules.map((p) => `- ${p.text}`));
    if (missingFiles.length) lines.push("Files touched so far:", ...missingFiles.map(([path, actions]) => `- ${path} (${[...actions].join(", ")})`));
  }
  const text = [words?.text, lines.join("\n")].filter((t): t is string => Boolean(t)).join("\n\n") || undefined;
  const check: CompactionCheck = {
    pins: pins.length,
    files: files.length,
    reinjectedPins: missingPins.length,
    reinjectedFiles: missingFiles.length,
    userMessages: words?.messages ?? 0,
    droppedUserMessages: words?.dropped ?? 0,
    time: input.now,
  };
  return { text, check };
}

/** Whether two checks say the same (the stored one is kept when nothing changed). */
export function sameCheck(a: CompactionCheck | undefined, b: CompactionCheck): boolean {
  return a !== undefined && a.pins === b.pins && a.files === b.files && a.reinjectedPins === b.reinjectedPins && a.reinjectedFiles === b.reinjectedFiles && a.userMessages === b.userMessages && a.droppedUserMessages === b.droppedUserMessages;
}

/**
 * The extra message after the summary in force for a session's next request, as the loop builds it
 * (the same inputs, counted with the same estimate), with the history as sent (`base`). The header's
 * size, the X-ray and its copied request use it too, so they show what the loop will send.
 */
export function afterSummaryOf(session: Pick<Session, "pins">, view: Pick<ConversationView, "shown" | "sent">, system: string[], model: ModelLimits, now: number, options: ToModelOptions = {}): AfterCompaction & { base: LLMMessage[] } {
  const base = toModelMessages(view.sent, options);
  return { base, ...afterCompaction({ history: view.shown, sent: view.sent, system, messages: base, pins: effectivePins(session.pins, view.shown), count: estimateTokens, model, now }) };
}

/**
 * The next request's conversation messages with the extra message after the summary, and the check
 * stored on the compaction request the first time (or when its result changes), for the divider.
 */
export async function requestAfterSummary(store: Store, session: Session, view: ConversationView, system: string[], model: ModelLimits, now: number, options: ToModelOptions = {}): Promise<{ messages: LLMMessage[]; text?: string }> {
  const { base, ...r } = afterSummaryOf(session, view, system, model, now, options);
  const part = view.sent[0]?.parts.find((p) => p.type === "compaction");
  if (r.check && part?.type === "compaction" && !sameCheck(part.check, r.check)) await store.upsertPart({ ...part, check: r.check });
  return { messages: withAfterSummary(base, r.text), text: r.text };
}

/** Whether `text` names `path` as a path: `a.ts` is not named by `data.ts` nor by `a.tsx` (a plain substring was). */
export function mentions(text: string, path: string): boolean {
  return new RegExp(`(?<![\\w.-])${escapeRegex(path)}(?![\\w-])`).test(text);
}
