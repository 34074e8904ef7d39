import { z } from "zod";
import type { ModelConfig } from "./ports/llm";
import { Ruleset } from "./schema/common";
import { ProviderKind } from "./providers";

export { ProviderKind } from "./providers";

/** A skill defined in Settings (the same fields as a SKILL.md). */
export const SettingsSkillSchema = z.object({ name: z.string(), description: z.string(), body: z.string() });

export const Prices = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
});

/** Limits and prices of one model (USD per 1M tokens). */
export const ModelSpec = z.object({
  contextWindow: z.number().int().positive(),
  maxOutputTokens: z.number().int().positive(),
  prices: Prices,
});
export type ModelSpec = z.infer<typeof ModelSpec>;

/** Persisted user settings. The API key lives here, in the browser only. */
export const Settings = z.object({
  provider: ProviderKind,
  baseURL: z.string(),
  apiKey: z.string(),
  modelID: z.string(),
  /** Limits and prices per model id, prefilled from the built-in table and editable. */
  models: z.record(z.string(), ModelSpec),
  maxSteps: z.number().int().min(1).max(500),
  sandbox: z.enum(["auto", "webcontainer", "local"]),
  /** Instructions for every session (like a global AGENTS.md). */
  globalRules: z.string(),
  /** Skills available in every session. */
  skills: z.array(SettingsSkillSchema),
  /** The user's permission rules, after the built-in defaults and the agent's (last match wins). */
  permissions: Ruleset,
  compaction: z.object({
    auto: z.boolean(),
    prune: z.boolean(),
    /** Fraction of the usable window at which auto-compaction starts (1 = at the limit). */
    threshold: z.number().min(0.1).max(1),
  }),
});
export type Settings = z.infer<typeof Settings>;

/** A small built-in table of common models (public list prices, USD per 1M tokens). */
export const BUILTIN_MODELS: Record<string, ModelSpec> = {
  "gpt-5": { contextWindow: 400_000, maxOutputTokens: 128_000, prices: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 } },
  "gpt-5-mini": { contextWindow: 400_000, maxOutputTokens: 128_000, prices: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 } },
  "gpt-5-nano": { contextWindow: 400_000, maxOutputTokens: 128_000, prices: { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0 } },
  "gpt-4.1": { contextWindow: 1_047_576, maxOutputTokens: 32_768, prices: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 } },
  "gpt-4.1-mini": { contextWindow: 1_047_576, maxOutputTokens: 32_768, prices: { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 } },
  "gpt-4o": { contextWindow: 128_000, maxOutputTokens: 16_384, prices: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 } },
  "gpt-4o-mini": { contextWindow: 128_000, maxOutputTokens: 16_384, prices: { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0 } },
  "o4-mini": { contextWindow: 200_000, maxOutputTokens: 100_000, prices: { input: 1.1, output: 4.4, cacheRead: 0.275, cacheWrite: 0 } },
  "qwen2.5-coder:7b": { contextWindow: 32_768, maxOutputTokens: 8_192, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
  "llama3.1:8b": { contextWindow: 131_072, maxOutputTokens: 8_192, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
  "demo-agent": { contextWindow: 6_000, maxOutputTokens: 1_000, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
};

export const FALLBACK_SPEC: ModelSpec = {
  contextWindow: 128_000,
  maxOutputTokens: 16_384,
  prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};

export function defaultSettings(): Settings {
  return {
    provider: "demo",
    baseURL: "",
    apiKey: "",
    modelID: "demo-agent",
    models: {},
    maxSteps: 50,
    sandbox: "auto",
    globalRules: "",
    skills: [],
    permissions: [],
    compaction: { auto: true, prune: true, threshold: 1 },
  };
}

/** Limits and prices for a model: the user's override, else the built-in table, else a safe fallback. */
export function specFor(settings: Settings, modelID: string): ModelSpec {
  return settings.models[modelID] ?? BUILTIN_MODELS[modelID] ?? FALLBACK_SPEC;
}

/** The built-in demo model, for demo sessions whatever the provider chosen in Settings. */
export function demoModelConfig(settings: Settings): ModelConfig {
  return modelConfig({ ...settings, provider: "demo", modelID: "demo-agent", baseURL: "", apiKey: "" });
}

export function modelConfig(settings: Settings): ModelConfig {
  const spec = specFor(settings, settings.modelID);
  return {
    provider: settings.provider,
    modelID: settings.modelID,
    baseURL: settings.baseURL.trim() || undefined,
    apiKey: settings.apiKey.trim() || undefined,
    contextWindow: spec.contextWindow,
    maxOutputTokens: spec.maxOutputTokens,
    prices: spec.prices,
  };
}

/** Parses stored settings, filling anything missing with defaults (never throws). */
export function parseSettings(raw: unknown): Settings {
  const base = defaultSettings();
  if (raw === null || typeof raw !== "object") return base;
  const merged = { ...base, ...(raw as Record<string, unknown>) };
  const r = Settings.safeParse(merged);
  return r.success ? r.data : base;
}
