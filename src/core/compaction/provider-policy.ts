import type { ModelConfig } from "../ports/llm";
import { hasProviderCompaction } from "../providers";
import { type CompactionSettings, overflowAt } from "./overflow";
import { hasNewContent } from "./opencode2-policy";
import type { ContextPolicy, PolicyDecision } from "./policy";

/**
 * Provider-side compaction (OpenAI Responses `context_management` compaction,
 * Anthropic's `compact_20260112` edit) as tabcode would run it, for the
 * benchmark: tabcode sets the provider's threshold at its own compaction
 * point and does nothing else (no prune, no tail kept); once a request's
 * input crosses it, the provider summarises the whole context inside that
 * request. Billed as the provider reports it: one pass over the whole
 * context (the same prefix as the previous request, so served from the
 * cache, like a cached-prefix summary) writing the summary, then the
 * answer over the summary and what follows. The summary is opaque, so
 * nothing in it can be checked or edited; tabcode's pins stay in the system
 * prompt, which the provider does not compact.
 */
/** The provider's threshold sits below tabcode's own compaction point, so the provider compacts first and ours stays the fallback. */
export const PROVIDER_THRESHOLD_SHARE = 0.9;

/**
 * What a chat request asks of the provider when Settings let it compact
 * (`compaction.provider`, automatic compaction on, a provider that has it).
 */
export function providerCompactionRequest(model: Pick<ModelConfig, "provider" | "contextWindow" | "maxOutputTokens" | "inputLimit">, settings: CompactionSettings): { threshold: number } | undefined {
  if (!settings.compaction.provider || settings.compaction.auto === false || !hasProviderCompaction(model.provider)) return undefined;
  return { threshold: Math.max(1, Math.floor(overflowAt(model, settings) * PROVIDER_THRESHOLD_SHARE)) };
}

export function providerCompactionPolicy(): ContextPolicy {
  return {
    name: "provider compaction",
    pins: true,
    decide(input): PolicyDecision {
      const { model, settings, view, request } = input;
      if (input.moment === "idle" || settings.compaction.auto === false || model.contextWindow === 0) return { kind: "send" };
      if (input.moment !== "overflow" && request <= overflowAt(model, settings)) return { kind: "send" };
      if (!hasNewContent(view)) return { kind: "send" };
      return { kind: "summarize", mode: "cached-prefix" };
    },
  };
}
