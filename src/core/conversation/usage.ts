import type { LLMUsage, ModelPrices } from "../ports/llm";
import type { Session, Tokens } from "../schema";

function finite(n: number | undefined): number {
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * Normalises one step's reported usage (spec §8.4).
 * `input` excludes cached reads; `output` excludes reasoning (providers such as
 * OpenAI count reasoning inside output tokens), so billing never counts a token twice.
 */
export function toTokens(u: LLMUsage): Tokens {
  const cacheRead = finite(u.cacheReadTokens);
  const cacheWrite = finite(u.cacheWriteTokens);
  const input = u.noCacheInputTokens !== undefined ? finite(u.noCacheInputTokens) : Math.max(0, finite(u.inputTokens) - cacheRead - cacheWrite);
  const reasoning = finite(u.reasoningTokens);
  const output = Math.max(0, finite(u.outputTokens) - reasoning);
  const tokens: Tokens = { input, output, reasoning, cache: { read: cacheRead, write: cacheWrite } };
  if (u.totalTokens !== undefined) tokens.total = finite(u.totalTokens);
  return tokens;
}

/** USD for a step; prices are per 1M tokens. Reasoning is billed at the output rate. */
export function costOf(t: Tokens, p: ModelPrices): number {
  const micro =
    t.input * p.input + t.output * p.output + t.reasoning * p.output + t.cache.read * p.cacheRead + t.cache.write * p.cacheWrite;
  return Math.round(micro) / 1_000_000;
}

export function addTokens(a: Tokens, b: Tokens): Tokens {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    reasoning: a.reasoning + b.reasoning,
    cache: { read: a.cache.read + b.cache.read, write: a.cache.write + b.cache.write },
  };
}

/**
 * The session row after one more step or summary: its tokens and cost added and, on a model with no known
 * price, one more unpriced step. A row stored before `unpriced` was kept stays without it (its count is not
 * known here): the next run fills it in from the messages (`AgentLoop`).
 */
export function addStepUse(s: Session, tokens: Tokens, cost: number, priceUnknown: boolean): Session {
  const out: Session = { ...s, tokens: addTokens(s.tokens, tokens), cost: s.cost + cost };
  if (priceUnknown && s.unpriced !== undefined) out.unpriced = s.unpriced + 1;
  return out;
}

/** What the last step put in the context window (spec §8.3). */
export function contextUsed(t: Tokens): number {
  return t.total || t.input + t.output + t.reasoning + t.cache.read + t.cache.write;
}
