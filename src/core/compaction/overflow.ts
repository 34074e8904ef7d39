import type { ModelConfig } from "../ports/llm";
import type { MessageWithParts, Tokens } from "../schema";
import { contextUsed } from "../conversation/usage";
import type { Settings } from "../settings";

/**
 * When a session is too large for its model (spec §3.2, current formula):
 *
 *   maxOutput = min(limit.output, OUTPUT_TOKEN_MAX) || OUTPUT_TOKEN_MAX
 *   reserved  = min(COMPACTION_BUFFER, maxOutput)
 *   usable    = limit.input ? max(0, limit.input − reserved)
 *                           : max(0, context − maxOutput − reserved)
 *   overflow  = auto ≠ false && context ≠ 0 && count ≥ floor(usable × threshold)
 *
 * `threshold` (settings, 0.1–1) lets compaction start before the limit.
 * The caller passes the tokens of the last finished non-summary assistant
 * message, so a summary never triggers a compaction of itself.
 */

export const OUTPUT_TOKEN_MAX = 32_000;
export const COMPACTION_BUFFER = 20_000;

/** The model limits overflow needs. */
export type ModelLimits = Pick<ModelConfig, "contextWindow" | "maxOutputTokens" | "inputLimit">;
/** The settings overflow needs (pass the whole `Settings`). */
export type CompactionSettings = Pick<Settings, "compaction">;

/** Output tokens requested per step: the model's limit, capped at 32k. */
export function maxOutput(model: ModelLimits): number {
  return Math.min(model.maxOutputTokens, OUTPUT_TOKEN_MAX) || OUTPUT_TOKEN_MAX;
}

/** Headroom kept free for the compaction itself. */
export function reserved(model: ModelLimits): number {
  return Math.min(COMPACTION_BUFFER, maxOutput(model));
}

/** The usable input window (before the threshold). */
export function usable(model: ModelLimits): number {
  if (model.inputLimit) return Math.max(0, model.inputLimit - reserved(model));
  return Math.max(0, model.contextWindow - maxOutput(model) - reserved(model));
}

/** Where auto-compaction starts: `floor(usable × threshold)`. */
export function overflowAt(model: ModelLimits, settings: CompactionSettings): number {
  return Math.floor(usable(model) * settings.compaction.threshold);
}

/** The hard input limit of a request that asks for `outputTokens` (no reserve): used for summary requests. */
export function inputBudget(model: ModelLimits, outputTokens: number = maxOutput(model)): number {
  return Math.max(0, model.inputLimit ?? model.contextWindow - outputTokens);
}

function enabled(model: ModelLimits, settings: CompactionSettings): boolean {
  return settings.compaction.auto !== false && model.contextWindow !== 0;
}

/**
 * After a step: whether its reported usage (`Tokens`, or a plain count) has
 * reached the compaction point. Always false when `compaction.auto` is off.
 */
export function isOverflow(tokens: Tokens | number, model: ModelLimits, settings: CompactionSettings): boolean {
  if (!enabled(model, settings)) return false;
  const count = typeof tokens === "number" ? tokens : contextUsed(tokens);
  return count >= overflowAt(model, settings);
}

/**
 * Before a call: whether our own (calibrated) count of the request about to
 * be sent has reached the compaction point. Always false when `compaction.auto` is off.
 */
export function wouldOverflow(requestTokens: number, model: ModelLimits, settings: CompactionSettings): boolean {
  if (!enabled(model, settings)) return false;
  return requestTokens >= overflowAt(model, settings);
}

/**
 * The usage to test with `isOverflow` at the top of the loop: the last
 * finished, error-free, non-summary assistant message newer than the newest
 * summary. Messages kept verbatim in a compaction tail are older than the
 * summary and carry the pre-compaction usage, so they never count (otherwise
 * every iteration would compact again).
 */
export function lastStepTokens(msgs: MessageWithParts[]): Tokens | undefined {
  let boundary = "";
  for (const m of msgs) if (m.info.role === "assistant" && m.info.summary && m.info.finish && !m.info.error && m.info.id > boundary) boundary = m.info.id;
  for (let i = msgs.length - 1; i >= 0; i--) {
    const info = msgs[i]?.info;
    if (info?.role === "assistant" && info.finish && !info.error && !info.summary && info.id > boundary) return info.tokens;
  }
  return undefined;
}
