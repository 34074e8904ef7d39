import { describe, expect, it } from "vitest";
import { encodingForModel, estimateCounter, estimateTokens } from "./counter";

describe("estimateTokens", () => {
  it("is ceil(chars / 4)", async () => {
    expect([estimateTokens(""), estimateTokens("abc"), estimateTokens("abcd"), estimateTokens("abcde")]).toEqual([0, 1, 1, 2]);
    expect(await estimateCounter.count(["x".repeat(400)], "estimate")).toEqual([100]);
  });
});

describe("encodingForModel", () => {
  it.each([
    ["gpt-4o", "o200k_base"],
    ["gpt-4o-mini", "o200k_base"],
    ["gpt-4.1-mini", "o200k_base"],
    ["gpt-5", "o200k_base"],
    ["gpt-5-nano", "o200k_base"],
    ["o1", "o200k_base"],
    ["o3-mini", "o200k_base"],
    ["o4-mini", "o200k_base"],
    ["openai/gpt-4o", "o200k_base"],
    ["ft:gpt-4o-mini:org::abc", "o200k_base"],
    ["gpt-oss-20b", "o200k_base"],
    ["gpt-4", "cl100k_base"],
    ["gpt-4-turbo", "cl100k_base"],
    ["gpt-3.5-turbo", "cl100k_base"],
    ["qwen2.5-coder:7b", "cl100k_base"],
    ["llama3.1:8b", "cl100k_base"],
    ["demo-agent", "cl100k_base"],
    ["", "cl100k_base"],
  ])("%s → %s", (model, enc) => {
    expect(encodingForModel(model)).toBe(enc);
  });
});
