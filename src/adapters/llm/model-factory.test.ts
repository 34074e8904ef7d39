import { describe, expect, it } from "vitest";
import type { ModelConfig } from "../../core/ports/llm";
import { createModelFactory } from "./model-factory";

describe("createModelFactory", () => {
  it("gives the same model object for the same provider, key and model id, and a new one when any differs", async () => {
    const factory = createModelFactory();
    const prices = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    const config: ModelConfig = { provider: "openai-compatible", modelID: "m1", apiKey: "k", baseURL: "http://127.0.0.1:1/v1", contextWindow: 8000, maxOutputTokens: 1000, prices };
    const first = await factory.model(config);
    expect(await factory.model({ ...config })).toBe(first);
    expect(await factory.model({ ...config, modelID: "m2" })).not.toBe(first);
    expect(await factory.model({ ...config, apiKey: "other" })).not.toBe(first);
    expect(await factory.model({ ...config, baseURL: "http://127.0.0.1:2/v1" })).not.toBe(first);
  });
});
