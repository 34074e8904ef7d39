import { emptyTokens, type MessageWithParts, type Session, type Tokens } from "../schema";
import { addTokens } from "../conversation/usage";
import { formatUSD } from "../util/money";

/**
 * A session's running totals recomputed from its messages: the sum over every
 * step (step-finish part) of every assistant message, and how many of those steps
 * had no known price (`Session.unpriced`). An assistant message with no step-finish
 * part (older OpenCode files) counts with its own cost and tokens.
 */
export function sessionTotals(messages: readonly MessageWithParts[]): { tokens: Tokens; cost: number; unpriced: number } {
  let tokens = emptyTokens();
  let micro = 0;
  for (const m of messages) {
    if (m.info.role !== "assistant") continue;
    let steps = 0;
    for (const p of m.parts) {
      if (p.type !== "step-finish") continue;
      steps++;
      tokens = addTokens(tokens, p.tokens);
      micro += p.cost * 1_000_000;
    }
    if (steps === 0) {
      tokens = addTokens(tokens, m.info.tokens);
      micro += m.info.cost * 1_000_000;
    }
  }
  // Sum in micro-dollars so a long session does not drift by float noise.
  return { tokens, cost: Math.round(micro) / 1_000_000, unpriced: unpricedSteps(messages) };
}

/**
 * Steps that ran on a model with no known price: their cost is not in the totals (it is unknown, not $0).
 * For a whole session read `sessionUnpriced`: the row keeps the count, the messages may not all be read yet.
 */
export function unpricedSteps(messages: readonly MessageWithParts[]): number {
  let n = 0;
  for (const m of messages) {
    if (m.info.role !== "assistant") continue;
    for (const p of m.parts) if (p.type === "step-finish" && p.priceUnknown) n++;
  }
  return n;
}

/**
 * A session's unpriced steps: the row's own count (`Session.unpriced`), kept where its cost is, so it is right
 * before the messages are read; a row stored before that count was kept falls back to counting `messages`.
 */
export function sessionUnpriced(session: Pick<Session, "unpriced">, messages: readonly MessageWithParts[]): number {
  return session.unpriced ?? unpricedSteps(messages);
}

/**
 * A total cost as shown, honest about steps with no known price: "price unknown" when no step had one,
 * "$0.42 + ?" when some did not (`long` says which part is not counted, for a tooltip or an export).
 */
export function costWords(cost: number, unpriced: number): { short: string; long: string } {
  if (unpriced === 0) return { short: formatUSD(cost), long: formatUSD(cost) };
  const steps = `${unpriced} step${unpriced === 1 ? "" : "s"} on a model with no known price`;
  if (cost === 0) return { short: "price unknown", long: `price unknown (${steps})` };
  return { short: `${formatUSD(cost)} + ?`, long: `${formatUSD(cost)}, not counting ${steps}` };
}
