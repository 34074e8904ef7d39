import { describe, expect, it } from "vitest";
import { modelChoices } from "./model-choices";
import { acceptsImages } from "./model-table";

describe("image input by model family", () => {
  it("knows the families that take images, through dates, gateways and tags", () => {
    expect(acceptsImages("gpt-4o-mini-2024-07-18")).toBe(true);
    expect(acceptsImages("anthropic/claude-sonnet-4.5")).toBe(true);
    expect(acceptsImages("gemini-2.5-flash")).toBe(true);
    expect(acceptsImages("deepseek-chat")).toBe(false);
    expect(acceptsImages("qwen2.5-coder:7b")).toBe(false);
    expect(acceptsImages("demo-agent")).toBe(false);
  });
  it("says nothing about an id it does not know", () => {
    expect(acceptsImages("my-private-model")).toBeUndefined();
  });
});

describe("model choices for the composer's picker", () => {
  it("offers the provider's default first, then the families it serves", () => {
    const openai = modelChoices("openai");
    expect(openai[0]).toBe("gpt-5-mini");
    expect(openai).toContain("o4-mini");
    expect(openai.some((m) => m.startsWith("claude"))).toBe(false);
    expect(modelChoices("anthropic")).toEqual(["claude-sonnet-4-5", "claude-opus-4", "claude-opus-4-5", "claude-sonnet-4", "claude-3-7-sonnet", "claude-haiku-4-5", "claude-3-5-haiku"]);
    expect(new Set(openai).size).toBe(openai.length);
  });
  it("gateways and local servers get every family; the demo gets none", () => {
    expect(modelChoices("openai-compatible")[0]).toBe("qwen2.5-coder:7b");
    expect(modelChoices("openrouter")).toContain("claude-sonnet-4");
    expect(modelChoices("openrouter")).not.toContain("demo-agent");
    expect(modelChoices("demo")).toEqual([]);
  });
});
