import { pendingCompaction } from "../compaction/summarize";
import type { PolicyDecision } from "../compaction/policy";
import type { ConversationView } from "../conversation/view";
import type { RequestSize } from "../tokens/request-size";

/** What the loop does next. */
export type Move =
  /** Run the pending compaction request (manual, or one the loop asked for). */
  | { kind: "compact" }
  /** The newest prompt is answered: stop. */
  | { kind: "done" }
  /** Measure the next request, then ask again with its size. */
  | { kind: "measure" }
  /** Mark these old tool outputs as pruned, then look again. */
  | { kind: "prune"; parts: Extract<PolicyDecision, { kind: "prune" }>["parts"] }
  /** Ask for a summary, then look again. */
  | { kind: "summarize"; mode: "transcript" | "cached-prefix"; tailStartID?: string }
  /** Send the request: one step. */
  | { kind: "send" };

export interface MovePolicy {
  /** The context policy's decision on the measured request. */
  decide(view: ConversationView, size: RequestSize): PolicyDecision;
  /** Automatic summaries still allowed for the current prompt. */
  summariesLeft: number;
}

/**
 * The loop's one decision (spec §2.2): a pending compaction first, then stop
 * when the turn is done, else measure the request and let the context policy
 * choose between sending, pruning and summarising. Pure.
 */
export function nextMove(view: ConversationView, size: RequestSize | undefined, policy: MovePolicy): Move {
  if (pendingCompaction(view.sent)) return { kind: "compact" };
  if (view.done) return { kind: "done" };
  if (!size) return { kind: "measure" };
  const d = policy.decide(view, size);
  if (d.kind === "prune" && d.parts.length > 0) return { kind: "prune", parts: d.parts };
  if (d.kind === "summarize" && policy.summariesLeft > 0 && view.sent.length > 1)
    return { kind: "summarize", mode: d.mode === "cached-prefix" ? "cached-prefix" : "transcript", tailStartID: d.tailStartID };
  return { kind: "send" };
}
