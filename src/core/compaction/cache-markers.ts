import type { LLMMessage } from "../ports/llm";

/**
 * Prompt-cache breakpoints on the conversation (spec §8.1). The system
 * sections are marked by the LLM adapter (the first section is the stable
 * header); here the last CACHE_TAIL_MESSAGES conversation messages get
 * `cache: true`, so the whole prefix up to the newest turn is cached and the
 * breakpoint rolls forward each step. At most 2 + 2 markers in total, within
 * Anthropic's limit of 4. Providers with automatic prefix caching (OpenAI)
 * ignore the markers.
 */

export const CACHE_TAIL_MESSAGES = 2;

/** A copy of `messages` where exactly the last two carry `cache: true`. Does not mutate its input. */
export function applyCacheMarkers(messages: readonly LLMMessage[]): LLMMessage[] {
  const from = messages.length - CACHE_TAIL_MESSAGES;
  return messages.map((m, i) => {
    if (i >= from) return m.cache ? m : { ...m, cache: true };
    if (!m.cache) return m;
    const { cache: _drop, ...rest } = m;
    return rest;
  });
}
