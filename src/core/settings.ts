import { z } from "./zod";
import type { ModelConfig } from "./ports/llm";
import { PermissionRule, Ruleset } from "./schema/common";
import { knownModelIDs, lookupModel } from "./model-table";
import { ProviderKind } from "./provider-kind";

export { ProviderKind } from "./provider-kind";

/** A skill defined in Settings (the same fields as a SKILL.md). */
export const SettingsSkillSchema = z.object({ name: z.string(), description: z.string(), body: z.string() });

export const Prices = z.object({
  input: z.number().check(z.nonnegative()),
  output: z.number().check(z.nonnegative()),
  cacheRead: z.number().check(z.nonnegative()),
  cacheWrite: z.number().check(z.nonnegative()),
});

/** Limits and prices of one model (USD per 1M tokens). */
export const ModelSpec = z.object({
  contextWindow: z.int().check(z.positive()),
  maxOutputTokens: z.int().check(z.positive()),
  prices: Prices,
});
export type ModelSpec = z.infer<typeof ModelSpec>;

/** Persisted user settings. The API key lives here, in the browser only. */
export const Settings = z.object({
  provider: ProviderKind,
  baseURL: z.string(),
  apiKey: z.string(),
  modelID: z.string(),
  /** A cheaper model of the same provider for summaries and titles; empty = the session's own model. */
  summaryModelID: z.string(),
  /** Limits and prices per model id, prefilled from the built-in table and editable. */
  models: z.record(z.string(), ModelSpec),
  maxSteps: z.int().check(z.gte(1), z.lte(500)),
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
    threshold: z.number().check(z.gte(0.1), z.lte(1)),
    /** Let the provider compact on its side where it can (OpenAI Responses, Anthropic); tabcode's own summary stays the fallback. */
    provider: z.optional(z.boolean()),
  }),
});
export type Settings = z.infer<typeof Settings>;

/** The families of the built-in model table (src/core/model-table.ts), for suggestions. */
export const BUILTIN_MODELS: readonly string[] = knownModelIDs();

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
    summaryModelID: "",
    models: {},
    maxSteps: 50,
    sandbox: "auto",
    globalRules: "",
    skills: [],
    permissions: [],
    compaction: { auto: true, prune: true, threshold: 1 },
  };
}

/** Limits and prices for a model: the user's override, else the built-in table (by family), else a safe fallback. */
export function specFor(settings: Settings, modelID: string): ModelSpec {
  return settings.models[modelID] ?? lookupModel(modelID) ?? FALLBACK_SPEC;
}

/** Whether the model's prices are known (set by the user or in the table); unknown prices are shown as such, never as $0. */
export function pricesKnown(settings: Settings, modelID: string): boolean {
  return settings.models[modelID] !== undefined || lookupModel(modelID) !== undefined;
}

/** The built-in demo model, for demo sessions whatever the provider chosen in Settings. */
export function demoModelConfig(settings: Settings): ModelConfig {
  return modelConfig({ ...settings, provider: "demo", modelID: "demo-agent", baseURL: "", apiKey: "" });
}

/**
 * The model a session runs on: the demo model for demo sessions; the model
 * chosen for this session in the composer (same provider as Settings); else
 * the one in Settings.
 */
export function sessionModelConfig(settings: Settings, session: { demo?: boolean; model?: { providerID: string; modelID: string } } | undefined): ModelConfig {
  if (session?.demo) return demoModelConfig(settings);
  const chosen = session?.model;
  if (chosen && chosen.providerID === settings.provider && chosen.modelID.trim() !== "") return modelConfig({ ...settings, modelID: chosen.modelID.trim() });
  return modelConfig(settings);
}

/**
 * The model an answer came from, for reading a past step back (Replay, a shared link): the numbers
 * of its own model id (Settings' entry for it, else the table), whatever model Settings chose now. No key.
 */
export function answeredModelConfig(settings: Settings, ran: { providerID: string; modelID: string }): ModelConfig {
  const kind = ProviderKind.safeParse(ran.providerID);
  return modelConfig({ ...settings, provider: kind.success ? kind.data : settings.provider, modelID: ran.modelID, baseURL: "", apiKey: "" });
}

/**
 * Why a base URL cannot be called, in the user's words, or undefined when it can (empty: the preset's own).
 * A URL without its scheme ("api.openai.com/v1") would be read as a path of this page's own server: the
 * request, key included, would go there instead of to the provider.
 */
export function baseURLProblem(url: string | undefined): string | undefined {
  const u = url?.trim();
  if (!u) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(u);
  } catch {
    return `The base URL “${u}” is not a full web address: it must start with https:// (or http:// for a server on this machine). Nothing was sent.`;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return `The base URL “${u}” must start with https:// or http://. Nothing was sent.`;
  return undefined;
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
    ...(pricesKnown(settings, settings.modelID) ? {} : { pricesUnknown: true }),
  };
}

/**
 * The model that writes summaries and titles: Settings' summary model (same
 * provider, key and base URL) when one is set, else the session's own model.
 * Demo sessions and sessions on another provider keep their own model.
 */
export function summaryModelFor(settings: Settings, sessionModel: ModelConfig): ModelConfig {
  const id = settings.summaryModelID.trim();
  if (!id || sessionModel.provider === "demo" || sessionModel.provider !== settings.provider || id === sessionModel.modelID) return sessionModel;
  return modelConfig({ ...settings, modelID: id });
}

/** Stored settings after validation, and what had to be reset (in words for the user). */
export interface ParsedSettings {
  settings: Settings;
  /** Labels of the fields or entries that were invalid and replaced by defaults (or dropped). */
  reset: string[];
}

const FIELD_LABELS: Record<string, string> = {
  provider: "Provider",
  baseURL: "Base URL",
  apiKey: "API key",
  modelID: "Model",
  summaryModelID: "Summary model",
  models: "Model limits",
  maxSteps: "Max steps",
  sandbox: "Sandbox",
  globalRules: "Global rules",
  skills: "Skills",
  permissions: "Permission rules",
  compaction: "Compaction",
};

const COMPACTION_LABELS: Record<string, string> = {
  auto: "Compaction: automatic",
  prune: "Compaction: prune old tool outputs",
  threshold: "Compaction: threshold",
  provider: "Compaction: by the provider",
};

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Keeps the valid entries of a stored list, naming the dropped ones. */
function validItems<T>(raw: unknown, item: z.ZodMiniType<T>, label: (i: number) => string, reset: string[]): T[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const out: T[] = [];
  raw.forEach((v, i) => {
    const r = item.safeParse(v);
    if (r.success) out.push(r.data);
    else reset.push(label(i));
  });
  return out;
}

/**
 * Validates stored settings field by field: a valid field is kept, an invalid
 * one is reset to its default (a bad list or map entry is dropped alone), and
 * `reset` names what changed so the user can be told. Missing fields (older
 * versions) take their defaults silently. Never throws.
 */
export function parseSettingsReport(raw: unknown): ParsedSettings {
  const base = defaultSettings();
  if (raw === null || raw === undefined) return { settings: base, reset: [] };
  if (!isRecord(raw)) return { settings: base, reset: ["All settings (not an object)"] };
  const reset: string[] = [];
  const out: Record<string, unknown> = { ...base };
  for (const key of Object.keys(Settings.shape) as Array<keyof Settings>) {
    const value = raw[key];
    if (value === undefined) continue;
    if (key === "models" && isRecord(value)) {
      const models: Record<string, ModelSpec> = {};
      for (const [id, spec] of Object.entries(value)) {
        const r = ModelSpec.safeParse(spec);
        if (r.success) models[id] = r.data;
        else reset.push(`Model limits for "${id}"`);
      }
      out.models = models;
      continue;
    }
    if (key === "skills") {
      const skills = validItems(value, SettingsSkillSchema, (i) => `Skill ${i + 1}`, reset);
      if (skills) {
        out.skills = skills;
        continue;
      }
    }
    if (key === "permissions") {
      const rules = validItems(value, PermissionRule, (i) => `Permission rule ${i + 1}`, reset);
      if (rules) {
        out.permissions = rules;
        continue;
      }
    }
    if (key === "compaction" && isRecord(value)) {
      const shape = Settings.shape.compaction.shape;
      const compaction: Record<string, unknown> = { ...base.compaction };
      for (const sub of Object.keys(shape) as Array<keyof typeof shape>) {
        if (value[sub] === undefined) continue;
        const r = shape[sub].safeParse(value[sub]);
        if (r.success) compaction[sub] = r.data;
        else reset.push(COMPACTION_LABELS[sub] ?? `Compaction: ${sub}`);
      }
      out.compaction = compaction;
      continue;
    }
    const r = Settings.shape[key].safeParse(value);
    if (r.success) out[key] = r.data;
    else reset.push(FIELD_LABELS[key] ?? key);
  }
  const whole = Settings.safeParse(out);
  return whole.success ? { settings: whole.data, reset } : { settings: base, reset: ["All settings"] };
}

/** Parses stored settings, keeping every valid field and defaulting the rest (never throws). */
export function parseSettings(raw: unknown): Settings {
  return parseSettingsReport(raw).settings;
}
