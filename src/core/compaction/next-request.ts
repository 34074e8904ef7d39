import type { LLMToolSpec } from "../ports/llm";
import type { MessageWithParts } from "../schema";
import { estimateTokens } from "../tokens/counter";
import { type CountMemo, planRequestSize } from "../tokens/request-size";
import { type CompactionSettings, type ModelLimits, overflowAt, usable } from "./overflow";

/**
 * The size of the next request, for every view that shows it (the header's
 * meter, the Context X-ray, Replay). It counts what the loop's
 * `ContextGuard.measure` counts (`planRequestSize`: system sections, tool
 * specs, the sent history, message and reply overheads), synchronously: cached
 * part counts and memoised system/tool counts are exact, the rest is
 * estimated (`exact` says which), and the loop's calibration ratio is applied.
 */
export interface NextRequestInput {
  /** The history as sent (`conversationView(...).sent`). */
  sent: MessageWithParts[];
  /** System prompt sections and tool specs the loop would send (empty when unknown). */
  system?: string[];
  tools?: LLMToolSpec[];
  model: ModelLimits;
  settings: CompactionSettings;
  /** `TokenCounter.encodingFor(modelID)`, to read cached part counts. */
  encoding: string;
  /** `Calibration.ratio(modelID)`; 1 when absent. */
  ratio?: number;
  /** Exact counts of system sections and tool specs. */
  memo?: CountMemo;
}

export interface NextRequestSize {
  /** Calibrated size (what the context policy compares with the limits). */
  total: number;
  /** Uncalibrated size, and its buckets. */
  raw: number;
  system: number;
  tools: number;
  messages: number;
  /** False when some text had no exact count. */
  exact: boolean;
  usable: number;
  /** Where auto-compaction starts. */
  overflowAt: number;
  contextWindow: number;
  /** `total / usable` (may exceed 1). */
  fraction: number;
}

/** The next request's size: the one function the UI shows. */
export function nextRequestSize(input: NextRequestInput): NextRequestSize {
  const plan = planRequestSize({ system: input.system ?? [], tools: input.tools ?? [], messages: input.sent, encoding: input.encoding }, input.memo);
  const sum = { ...plan.known };
  for (const job of plan.jobs) sum[job.bucket] += estimateTokens(job.text);
  const raw = sum.system + sum.tools + sum.messages;
  const total = Math.ceil(raw * (input.ratio ?? 1));
  const u = usable(input.model);
  return {
    total,
    raw,
    ...sum,
    exact: plan.jobs.length === 0,
    usable: u,
    overflowAt: overflowAt(input.model, input.settings),
    contextWindow: input.model.contextWindow,
    fraction: u > 0 ? total / u : 0,
  };
}
