import { describe, expect, it } from "vitest";
import { lookupModel, MODEL_TABLE_SOURCE } from "./model-table";
import { defaultSettings, modelConfig, pricesKnown, specFor } from "./settings";

describe("model table by family", () => {
  it("resolves dated, suffixed and gateway-prefixed ids to their family", () => {
    expect(lookupModel("gpt-5-mini-2025-08-07")).toEqual(lookupModel("gpt-5-mini"));
    expect(lookupModel("gpt-4o-mini-2024-07-18")?.prices.input).toBe(0.15);
    expect(lookupModel("gpt-4o-2024-11-20")?.prices.input).toBe(2.5);
    expect(lookupModel("claude-sonnet-4-5-20250929")?.prices).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(lookupModel("anthropic/claude-sonnet-4.5")?.prices.input).toBe(3);
    expect(lookupModel("openai/gpt-5-mini")?.contextWindow).toBe(400_000);
    expect(lookupModel("qwen2.5-coder:7b")?.prices.input).toBe(0);
    expect(lookupModel("deepseek-reasoner")?.maxOutputTokens).toBe(64_000);
  });

  it("matches families at a boundary only, and knows nothing of unknown ids", () => {
    expect(lookupModel("gpt-50")).toBeUndefined();
    expect(lookupModel("my-private-model")).toBeUndefined();
  });

  it("Anthropic's cache prices follow its rule: write 1.25 × input, read 10 %", () => {
    for (const id of ["claude-opus-4-1", "claude-sonnet-4", "claude-haiku-4-5"]) {
      const p = lookupModel(id)?.prices;
      expect(p?.cacheWrite).toBeCloseTo((p?.input ?? 0) * 1.25, 10);
      expect(p?.cacheRead).toBeCloseTo((p?.input ?? 0) * 0.1, 10);
    }
    expect(MODEL_TABLE_SOURCE).toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it("an unknown model's prices are marked unknown (never a silent $0); a user override makes them known", () => {
    const s = { ...defaultSettings(), provider: "openai-compatible" as const, modelID: "my-private-model" };
    expect(pricesKnown(s, "my-private-model")).toBe(false);
    expect(modelConfig(s).pricesUnknown).toBe(true);
    const spec = specFor(s, "my-private-model");
    const known = { ...s, models: { "my-private-model": spec } };
    expect(modelConfig(known).pricesUnknown).toBeUndefined();
    expect(modelConfig({ ...s, modelID: "gpt-5-mini-2025-08-07" }).pricesUnknown).toBeUndefined();
  });
});
