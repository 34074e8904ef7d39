import { namedError } from "../errors";
import type { ModelConfig } from "../ports/llm";
import type { MessageWithParts, NamedErrorData } from "../schema";
import { messageTokens } from "../tokens/part-text";
import { inputBudget, maxOutput } from "./overflow";
import { SUMMARY_PROMPT_TOKENS } from "./policy";
import { findReplay, hasUserContent } from "./replay";
import { previousSummary } from "./summarize";

/**
 * The floor a summary cannot go below: what it keeps verbatim (the system prompt with its pins and rules,
 * the tool definitions, a kept tail, a replayed prompt) and what the summary request itself must read whole
 * (the newest prompt, when it is folded). Worked out before a summary is paid for: when the floor is over
 * the window, no summary can make the request fit, so the loop says so at once instead of summarising.
 */

/** The error's `kind` (the error box's headline reads it). */
export const FLOOR_KIND = "floor";

/** What a summary cannot shorten, in calibrated tokens. */
export interface SummaryFloor {
  /** System prompt (pins, rules) and tool definitions. */
  prefix: number;
  /** The newest prompt a person sent (media as placeholders), when it is still in the request. */
  prompt: number;
  /** Messages kept verbatim after the summary: the tail, or the replayed prompt after a provider overflow. */
  kept: number;
  /** Whether `kept` is the replayed prompt (it is then also `prompt`). */
  replay: boolean;
  /** The least the next chat request can be after any summary. */
  chat: number;
  /** The least the summary request can be (it reads a folded prompt whole); 0 when the prompt is not folded. */
  summary: number;
}

export interface FloorInput {
  /** Calibrated tokens of the system sections (without the extra message after a summary in force) and the tools. */
  prefix: number;
  /** The history as sent (`conversationView(…).sent`), parts carrying the counts the request's measure left. */
  sent: MessageWithParts[];
  /** The newest message a person sent. */
  promptID: string | undefined;
  /** After a provider overflow: the newest prompt is replayed after the summary, not folded into it. */
  replay: boolean;
  /** The first message the summary keeps verbatim (the policy's tail). */
  tailStartID?: string;
  encoding: string;
  calibrate(tokens: number): number;
}

/** The floor of a summary of `sent`, as `processCompaction` would plan it. */
export function summaryFloor(input: FloorInput): SummaryFloor {
  const { sent, encoding } = input;
  const size = (m: MessageWithParts | undefined) => (m ? input.calibrate(messageTokens(m, encoding, { stripMedia: true }).tokens) : 0);
  const previous = previousSummary(sent);
  const prevIDs = new Set([previous?.message.info.id, previous?.message.info.parentID]);
  const body = sent.filter((m) => !prevIDs.has(m.info.id));
  const promptAt = input.promptID === undefined ? -1 : body.findIndex((m) => m.info.id === input.promptID);
  const prompt = size(body[promptAt]);
  if (input.replay) {
    // The same rule as `processCompaction`: the newest real user message is replayed when something came before it.
    const r = findReplay(body);
    if (r !== undefined && (previous || body.slice(0, r).some(hasUserContent))) {
      const kept = size(body[r]);
      return { prefix: input.prefix, prompt: r === promptAt ? prompt : 0, kept, replay: true, chat: input.prefix + kept, summary: 0 };
    }
  }
  const tailAt = input.tailStartID === undefined ? -1 : body.findIndex((m) => m.info.id === input.tailStartID);
  let kept = 0;
  if (tailAt > 0) for (const m of body.slice(tailAt)) kept += size(m);
  const folded = promptAt >= 0 && (tailAt <= 0 || promptAt < tailAt);
  return { prefix: input.prefix, prompt: promptAt >= 0 ? prompt : 0, kept, replay: false, chat: input.prefix + kept, summary: folded ? prompt + SUMMARY_PROMPT_TOKENS : 0 };
}

type Limits = Pick<ModelConfig, "modelID" | "contextWindow" | "maxOutputTokens" | "inputLimit">;

function about(n: number): string {
  return `about ${Math.round(n).toLocaleString("en-US")}`;
}

function tokens(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

/** What the model takes per request, in words: "at most 3,500 tokens per request (its 4,000-token window less 500 kept for the answer)". */
function limitWords(model: Limits): string {
  const budget = inputBudget(model);
  if (model.inputLimit) return `at most ${tokens(budget)} tokens of input per request`;
  return `at most ${tokens(budget)} tokens per request (its ${tokens(model.contextWindow)}-token window less ${tokens(maxOutput(model))} kept for the answer)`;
}

/** What the user can do about it, for the part that weighs most. */
function hint(promptHeavy: boolean): string {
  return promptHeavy
    ? "Remove or shorten the pasted text (Edit your message, or send a shorter one), pick a model with a larger context window, or start a fresh session."
    : "Unpin long pins or shorten the rules (AGENTS.md, the rules in Settings), pick a model with a larger context window, or start a fresh session.";
}

/**
 * The clear error when no summary can make the request fit `model` (the session's model; `writer` writes the
 * summary), or undefined when one can. Nothing has been summarised when it is shown.
 */
export function floorError(floor: SummaryFloor, model: Limits, writer: Limits = model): NamedErrorData | undefined {
  if (model.contextWindow <= 0) return undefined;
  const chatOver = floor.chat > inputBudget(model);
  const summaryOver = floor.summary > 0 && floor.summary > inputBudget(writer);
  if (!chatOver && !summaryOver) return undefined;
  if (!chatOver) {
    return namedError("ContextOverflowError", {
      kind: FLOOR_KIND,
      message: `Your last message alone is ${about(floor.prompt)} tokens: too long for ${writer.modelID} even to summarise, which takes ${limitWords(writer)}. No summary was made.`,
      hint: hint(true),
    });
  }
  const parts: [string, number][] = [];
  if (floor.replay && floor.kept > 0) parts.push(["your last message", floor.kept]);
  parts.push(["the system prompt, pins and tool definitions", floor.prefix]);
  if (!floor.replay && floor.kept > 0) parts.push(["the recent turns kept word for word", floor.kept]);
  const what =
    parts.length === 1
      ? `${parts[0]?.[0]}, which a summary keeps as they are, come to ${about(floor.chat)} tokens`
      : `what a summary keeps as it is — ${parts.map(([name, n]) => `${name} (${about(n)} tokens)`).join(" and ")} — comes to ${about(floor.chat)} tokens`;
  return namedError("ContextOverflowError", {
    kind: FLOOR_KIND,
    message: `This request cannot fit ${model.modelID}, even after a summary: ${what}, and the model takes ${limitWords(model)}. No summary was made.`,
    hint: hint(floor.replay && floor.kept >= floor.prefix),
  });
}

/** The error when a summary made this turn did not help: the provider still refused the request, or it did not get smaller. */
export function stillTooLarge(model: Limits, said?: string): NamedErrorData {
  const provider = said ? ` The provider said: “${said}”` : "";
  return namedError("ContextOverflowError", {
    kind: FLOOR_KIND,
    message: `The request is still too large for ${model.modelID} after a summary, so tabcode stopped instead of summarising again (a second summary would have nothing new to fold).${provider}`,
    hint: hint(true),
  });
}
