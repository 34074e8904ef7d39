import { emptyTokens, type MessageWithParts, type Tokens } from "../schema";
import { addTokens } from "../conversation/usage";

/**
 * A session's running totals recomputed from its messages: the sum over every
 * step (step-finish part) of every assistant message. An assistant message with
 * no step-finish part (older OpenCode files) counts with its own cost and tokens.
 */
export function sessionTotals(messages: readonly MessageWithParts[]): { tokens: Tokens; cost: number } {
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
  return { tokens, cost: Math.round(micro) / 1_000_000 };
}
