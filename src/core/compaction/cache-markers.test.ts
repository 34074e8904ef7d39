import { describe, expect, it } from "vitest";
import type { LLMMessage } from "../ports/llm";
import { applyCacheMarkers } from "./cache-markers";

const user = (t: string, cache?: boolean): LLMMessage => ({ role: "user", content: [{ type: "text", text: t }], ...(cache ? { cache } : {}) });

describe("applyCacheMarkers", () => {
  it("marks exactly the last two messages and clears older marks", () => {
    const input = [user("a", true), user("b"), user("c"), user("d")];
    const out = applyCacheMarkers(input);
    expect(out.map((m) => m.cache === true)).toEqual([false, false, true, true]);
    expect("cache" in (out[0] ?? {})).toBe(false);
    // Input untouched.
    expect(input.map((m) => m.cache === true)).toEqual([true, false, false, false]);
  });

  it("handles short histories", () => {
    expect(applyCacheMarkers([])).toEqual([]);
    expect(applyCacheMarkers([user("only")]).map((m) => m.cache)).toEqual([true]);
  });

  it("marks tool-result messages like any other", () => {
    const tool: LLMMessage = { role: "tool", content: [{ type: "tool-result", callID: "c", tool: "t", output: "o" }] };
    const out = applyCacheMarkers([user("a"), { role: "assistant", content: [{ type: "tool-call", callID: "c", tool: "t", input: {} }] }, tool]);
    expect(out.map((m) => m.cache === true)).toEqual([false, true, true]);
  });
});
