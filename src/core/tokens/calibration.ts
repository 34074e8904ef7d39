import type { Tokens } from "../schema";

/**
 * Calibration of our counts against what the provider bills.
 *
 * Our request count is exact for the texts but approximates the provider's
 * framing (message markers, tool-spec rendering, images, a local model's own
 * tokenizer). After each step, the provider's reported input tokens for the
 * request are compared with our count of that same request; the ratio
 * `reported / counted` is kept per model id, in memory only, smoothed
 * (the first sample is taken as is, then each new sample moves the ratio
 * half way) and clamped to [0.5, 2] so that one odd report cannot make the
 * pre-call overflow check absurd. `apply` multiplies an estimate by it.
 */

export const CALIBRATION_MIN = 0.5;
export const CALIBRATION_MAX = 2;
/** Requests smaller than this are too dominated by fixed framing to calibrate on. */
export const CALIBRATION_MIN_SAMPLE = 200;

/** The input tokens a provider reported for one step (uncached + cache reads + cache writes). */
export function reportedInputTokens(t: Tokens): number {
  return t.input + t.cache.read + t.cache.write;
}

function clamp(x: number): number {
  return Math.min(CALIBRATION_MAX, Math.max(CALIBRATION_MIN, x));
}

/** Correction ratios per model id. */
export class Calibration {
  private readonly ratios = new Map<string, number>();

  /** The current ratio for a model (1 until observed). */
  ratio(modelID: string): number {
    return this.ratios.get(modelID) ?? 1;
  }

  /**
   * Records one step: `reported` input tokens (see `reportedInputTokens`)
   * against `counted`, our `RequestSize.total` for the same request.
   * Returns the new ratio. Ignores unusable samples.
   */
  observe(modelID: string, reported: number, counted: number): number {
    if (!(reported > 0) || !(counted >= CALIBRATION_MIN_SAMPLE) || !Number.isFinite(reported)) return this.ratio(modelID);
    const sample = clamp(reported / counted);
    const prev = this.ratios.get(modelID);
    const next = prev === undefined ? sample : clamp((prev + sample) / 2);
    this.ratios.set(modelID, next);
    return next;
  }

  /** Our count corrected for a model: `ceil(tokens × ratio)`. */
  apply(modelID: string, tokens: number): number {
    return Math.ceil(tokens * this.ratio(modelID));
  }

  /** Forgets a model's ratio (e.g. after the user edits its settings). */
  reset(modelID?: string): void {
    if (modelID === undefined) this.ratios.clear();
    else this.ratios.delete(modelID);
  }
}
