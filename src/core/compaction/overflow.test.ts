import { describe, expect, it } from "vitest";
import { defaultSettings, type Settings } from "../settings";
import { compaction, History, text } from "./test-fixtures";
import { inputBudget, isOverflow, lastStepTokens, maxOutput, type ModelLimits, overflowAt, reserved, usable, wouldOverflow } from "./overflow";

const settings = (c: Partial<Settings["compaction"]> = {}): Settings => ({ ...defaultSettings(), compaction: { auto: true, prune: true, threshold: 1, ...c } });

// gpt-4o-like: no input limit. maxOutput 16,384 → reserve 16,384 → usable 128,000 − 16,384 − 16,384.
const noInput: ModelLimits = { contextWindow: 128_000, maxOutputTokens: 16_384 };
// gpt-5-like: an input limit; output capped at 32k → reserve 20k → usable 272,000 − 20,000.
const withInput: ModelLimits = { contextWindow: 400_000, inputLimit: 272_000, maxOutputTokens: 128_000 };

describe("overflow formula", () => {
  it("caps output at 32k and falls back to 32k when the model reports none", () => {
    expect(maxOutput(noInput)).toBe(16_384);
    expect(maxOutput(withInput)).toBe(32_000);
    expect(maxOutput({ contextWindow: 100_000, maxOutputTokens: 0 })).toBe(32_000);
  });

  it("reserves min(20k, maxOutput)", () => {
    expect(reserved(noInput)).toBe(16_384);
    expect(reserved(withInput)).toBe(20_000);
    expect(reserved({ contextWindow: 32_768, maxOutputTokens: 8_192 })).toBe(8_192);
  });

  it("computes the usable window with and without an input limit", () => {
    expect(usable(noInput)).toBe(95_232);
    expect(usable(withInput)).toBe(252_000);
    expect(usable({ contextWindow: 32_768, maxOutputTokens: 8_192 })).toBe(16_384);
    expect(usable({ contextWindow: 10_000, maxOutputTokens: 8_000 })).toBe(0);
  });

  it("overflows exactly at usable (no input limit)", () => {
    expect(isOverflow(95_231, noInput, settings())).toBe(false);
    expect(isOverflow(95_232, noInput, settings())).toBe(true);
    expect(wouldOverflow(95_231, noInput, settings())).toBe(false);
    expect(wouldOverflow(95_232, noInput, settings())).toBe(true);
  });

  it("overflows exactly at usable (input limit)", () => {
    expect(isOverflow(251_999, withInput, settings())).toBe(false);
    expect(isOverflow(252_000, withInput, settings())).toBe(true);
    expect(wouldOverflow(251_999, withInput, settings())).toBe(false);
    expect(wouldOverflow(252_000, withInput, settings())).toBe(true);
  });

  it("applies the threshold as a fraction of usable", () => {
    const s = settings({ threshold: 0.8 });
    expect(overflowAt(noInput, s)).toBe(76_185); // floor(95,232 × 0.8)
    expect(isOverflow(76_184, noInput, s)).toBe(false);
    expect(isOverflow(76_185, noInput, s)).toBe(true);
    expect(wouldOverflow(201_599, withInput, s)).toBe(false);
    expect(wouldOverflow(201_600, withInput, s)).toBe(true);
  });

  it("never fires with auto off or an unknown (0) context window", () => {
    expect(isOverflow(10_000_000, noInput, settings({ auto: false }))).toBe(false);
    expect(wouldOverflow(10_000_000, withInput, settings({ auto: false }))).toBe(false);
    expect(isOverflow(10_000_000, { contextWindow: 0, maxOutputTokens: 1_000 }, settings())).toBe(false);
  });

  it("counts a step's tokens as total, else input + output + reasoning + cache", () => {
    const tokens = { input: 50_000, output: 5_000, reasoning: 232, cache: { read: 40_000, write: 0 } };
    expect(isOverflow({ ...tokens, output: 4_999 }, noInput, settings())).toBe(false);
    expect(isOverflow(tokens, noInput, settings())).toBe(true);
    expect(isOverflow({ ...tokens, total: 95_231 }, noInput, settings())).toBe(false);
  });

  it("gives the hard input budget of a request", () => {
    expect(inputBudget(noInput)).toBe(128_000 - 16_384);
    expect(inputBudget(noInput, 4_000)).toBe(124_000);
    expect(inputBudget(withInput)).toBe(272_000);
  });
});

describe("lastStepTokens", () => {
  const used = (n: number) => ({ input: n, output: 0, reasoning: 0, cache: { read: 0, write: 0 } });

  it("takes the newest finished non-summary answer", () => {
    const h = new History();
    h.user(text("a"));
    h.assistant([text("1")]).info.tokens = used(100);
    h.assistant([text("2")]).info.tokens = used(200);
    const unfinished = h.assistant([text("3")]);
    delete unfinished.info.finish;
    expect(lastStepTokens(h.msgs)?.input).toBe(200);
  });

  it("ignores the summary and a compaction tail's stale usage", () => {
    const h = new History();
    h.user(text("tail"));
    h.assistant([text("big")]).info.tokens = used(120_000);
    const c = h.user(compaction(true, { tail_start_id: h.msgs[0]?.info.id }));
    h.assistant([text("S")], { summary: true, parent: c.info.id }).info.tokens = used(130_000);
    // As filterCompacted orders it: [request, summary, tail…].
    const [tailUser, tailAnswer, request, summary] = h.msgs;
    const ordered = [request, summary, tailUser, tailAnswer].filter((m) => m !== undefined);
    expect(lastStepTokens(ordered)).toBeUndefined();
    h.user(text("next"));
    h.assistant([text("ok")]).info.tokens = used(9_000);
    expect(lastStepTokens([...ordered, ...h.msgs.slice(4)])?.input).toBe(9_000);
  });
});
