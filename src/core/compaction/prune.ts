import type { Store } from "../ports/store";
import type { MessageWithParts, ToolPart } from "../schema";
import { conversationView } from "../conversation/view";
import { estimateTokens } from "../tokens/counter";
import { knownCount, partCost } from "../tokens/part-text";

/**
 * Prune (spec §3.3): hide old tool outputs from the model without an LLM
 * call. Marks `state.time.compacted`; the output stays in the store and the
 * UI, and `toModelMessages` sends "[Old tool result content cleared]".
 *
 * Walk newest → oldest; skip everything after the second-newest user message
 * (the last two turns); stop at a summary (the previous compaction boundary)
 * or at an already pruned part (everything older was pruned before). Of the
 * completed tool outputs met, the newest PRUNE_PROTECT tokens are kept; the
 * older ones are pruned, but only when that frees more than PRUNE_MINIMUM.
 */

export const PRUNE_MINIMUM = 20_000;
export const PRUNE_PROTECT = 40_000;
/** Tools whose output is never pruned. */
export const PRUNE_PROTECTED_TOOLS: ReadonlySet<string> = new Set(["skill"]);

export interface PrunePlan {
  /** Parts to mark, newest first. Empty when less than PRUNE_MINIMUM would be freed. */
  parts: ToolPart[];
  /** Tokens freed by pruning `parts` (or that would have been, below the minimum). */
  pruned: number;
  /** Tool-output tokens kept because they are among the newest PRUNE_PROTECT. */
  kept: number;
}

/** A completed tool part's size: its cached exact count when fresh, else an estimate of the output. */
export function toolOutputTokens(part: ToolPart): number {
  if (part.state.status !== "completed") return 0;
  const cost = partCost(part, "assistant");
  // Images and PDFs it read go with it when pruned.
  const media = cost.kind === "text" ? (cost.media ?? 0) : 0;
  const c = cost.kind === "text" ? knownCount(part, cost.text.length) : undefined;
  if (c !== undefined) return c + media;
  return estimateTokens(part.state.output) + media;
}

/** Plans a prune over the history as sent (chronological; pass `filterCompacted` output). */
export function planPrune(msgs: MessageWithParts[]): PrunePlan {
  const candidates: ToolPart[] = [];
  let turns = 0;
  let total = 0;
  let pruned = 0;
  let kept = 0;
  walk: for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (!m) continue;
    if (m.info.role === "user") turns++;
    if (turns < 2) continue;
    if (m.info.role === "assistant" && m.info.summary) break;
    for (let j = m.parts.length - 1; j >= 0; j--) {
      const p = m.parts[j];
      if (p?.type !== "tool" || p.state.status !== "completed") continue;
      if (PRUNE_PROTECTED_TOOLS.has(p.tool)) continue;
      if (p.state.time.compacted) break walk;
      const tokens = toolOutputTokens(p);
      total += tokens;
      if (total > PRUNE_PROTECT) {
        candidates.push(p);
        pruned += tokens;
      } else kept += tokens;
    }
  }
  // OpenCode prunes only when it frees more than the minimum (strict).
  return { parts: pruned > PRUNE_MINIMUM ? candidates : [], pruned, kept };
}

/** Marks the planned parts as pruned at `now` and persists them. Returns the updated parts. */
export async function applyPrune(store: Store, plan: PrunePlan, now: number): Promise<ToolPart[]> {
  const out: ToolPart[] = [];
  for (const p of plan.parts) {
    if (p.state.status !== "completed") continue;
    const next: ToolPart = { ...p, state: { ...p.state, time: { ...p.state.time, compacted: now } } };
    await store.upsertPart(next);
    out.push(next);
  }
  return out;
}

/** Reads a session, plans and applies a prune. Call after a loop finishes when `settings.compaction.prune` is on. */
export async function pruneSession(store: Store, sessionID: string, now: number): Promise<ToolPart[]> {
  const session = await store.getSession(sessionID);
  if (!session) return [];
  const msgs = conversationView(session, await store.messages(sessionID)).sent;
  return applyPrune(store, planPrune(msgs), now);
}
