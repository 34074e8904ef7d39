import type { Tokens } from "../schema";
import { COMPACTION_BUFFER, type ModelLimits, maxOutput } from "./overflow";

/**
 * OpenCode's own rules, as its source has them, for the context benchmark's
 * baselines (`opencodePolicy` in policy.ts for 1.x, `opencode2Policy` in opencode2-policy.ts
 * for 2.x). The app's own overflow functions (overflow.ts) keep their extra
 * reserve; these are only what OpenCode does, so the comparison is fair.
 *
 * Audited against OpenCode 1.x `session/overflow.ts` and
 * `session/compaction.ts` (prune), newest 1.x line:
 * - usable = limit.input ? input − reserved : context − reserved, with
 *   reserved = min(20k, maxOutput): the output limit is not subtracted a
 *   second time when there is no separate input limit;
 * - the overflow count is `tokens.total`, else input + output + cache read +
 *   cache write (reasoning is not added);
 * - `usable` 0 never overflows;
 * - a prune happens only when it frees **more than** PRUNE_MINIMUM (strict),
 *   after more than PRUNE_PROTECT tokens of newer outputs.
 */

/** OpenCode 1.x `usable()`. */
export function opencodeUsable(model: ModelLimits): number {
  if (model.contextWindow === 0) return 0;
  const reserved = Math.min(COMPACTION_BUFFER, maxOutput(model));
  return model.inputLimit ? Math.max(0, model.inputLimit - reserved) : Math.max(0, model.contextWindow - reserved);
}

/** OpenCode 1.x overflow count of a finished step's usage. */
export function opencodeCount(t: Tokens): number {
  return t.total || t.input + t.output + t.cache.read + t.cache.write;
}

/** OpenCode 2.x's buffer below the window: the next request must stay under context − max(output, buffer). */
export const OPENCODE2_BUFFER = 20_000;
/** OpenCode 2.x `compaction.keep.tokens`: the recent tail kept verbatim (8,000 in its code, ≈15,000 in its docs). */
export const OPENCODE2_KEEP_TOKENS = 8_000;

/** Where OpenCode 2.x compacts: the estimate of the next full request against context − max(output, 20k). */
export function opencode2Limit(model: ModelLimits): number {
  const limit = model.inputLimit ?? model.contextWindow;
  return Math.max(0, limit - Math.max(maxOutput(model), OPENCODE2_BUFFER));
}

