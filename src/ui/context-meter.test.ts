import { describe, expect, it } from "vitest";
import { emptyTokens, type MessageWithParts } from "../core/schema";
import { contextMeterAttributes, demoStandIn, meterText } from "./context-meter";

/**
 * The region a `<meter>` is drawn in, as HTML defines it (the "meter" element's boundaries and regions):
 * the boundaries are clamped (min ≤ low ≤ high ≤ max, value within [min, max]); with the optimum below
 * `low`, the value is in the optimum region below `low`, suboptimal from `low` to `high`, and in the even
 * less good region above `high`.
 */
function region(a: ReturnType<typeof contextMeterAttributes>): "green" | "amber" | "red" {
  const max = Math.max(a.min, a.max);
  const value = Math.min(Math.max(a.value, a.min), max);
  const low = Math.min(Math.max(a.low, a.min), max);
  const high = Math.min(Math.max(a.high, low), max);
  if (value < low) return "green";
  if (value <= high) return "amber";
  return "red";
}

describe("contextMeterAttributes", () => {
  // usable 100,000 tokens; auto-compaction at usable × threshold.
  for (const threshold of [1, 0.8, 0.5, 0.1]) {
    const usable = 100_000;
    const overflowAt = Math.floor(usable * threshold);
    it(`is red exactly from where auto-compaction starts (threshold ${threshold})`, () => {
      const at = (total: number) => region(contextMeterAttributes({ total, usable, overflowAt }));
      expect(at(overflowAt - 1)).not.toBe("red");
      expect(at(overflowAt)).toBe("red");
      expect(at(usable)).toBe("red");
      expect(at(usable * 2.15)).toBe("red");
      expect(at(0)).toBe("green");
    });
  }

  it("is amber between 60 % of the window and the compaction point", () => {
    const size = { usable: 100_000, overflowAt: 100_000 };
    expect(region(contextMeterAttributes({ ...size, total: 59_999 }))).toBe("green");
    expect(region(contextMeterAttributes({ ...size, total: 60_000 }))).toBe("amber");
    expect(region(contextMeterAttributes({ ...size, total: 99_999 }))).toBe("amber");
  });

  it("keeps the value inside the window", () => {
    expect(contextMeterAttributes({ total: 250_000, usable: 100_000, overflowAt: 100_000 }).value).toBe(100_000);
  });

  it("leaves the meter empty for a model whose window is unknown (nothing to compare with)", () => {
    const none = contextMeterAttributes({ total: 10_000, usable: 0, overflowAt: 0 });
    expect(none).toMatchObject({ max: 1, value: 0 });
    expect(region(none)).toBe("green");
  });
});

describe("the meter when the demo model stands in for the session's own", () => {
  const demo = { provider: "demo" as const, contextWindow: 6_000 };
  const answer = (modelID: string, providerID = "anthropic"): MessageWithParts => ({
    info: { id: `msg_${modelID}`, sessionID: "ses_1", role: "assistant", parentID: "msg_0", time: { created: 1 }, modelID, providerID, agent: "build", cost: 0, tokens: emptyTokens() },
    parts: [],
  });

  it("finds the model an imported session was recorded on (its newest answer)", () => {
    expect(demoStandIn(demo, {}, [answer("claude-3-5-haiku"), answer("claude-sonnet-4-5")])).toEqual({ modelID: "claude-sonnet-4-5", contextWindow: 200_000 });
    // The session's own choice wins; an id the table does not know has no window.
    expect(demoStandIn(demo, { model: { providerID: "openai", modelID: "my-finetune" } }, [answer("claude-sonnet-4-5")])).toEqual({ modelID: "my-finetune" });
    // Not a stand-in: demo sessions, a real provider, a session with only demo answers or none.
    expect(demoStandIn(demo, { demo: true }, [answer("claude-sonnet-4-5")])).toBeUndefined();
    expect(demoStandIn({ provider: "anthropic" }, {}, [answer("claude-sonnet-4-5")])).toBeUndefined();
    expect(demoStandIn(demo, {}, [answer("demo-agent", "demo"), answer("unknown", "unknown")])).toBeUndefined();
  });

  it("over the demo's window: '>100%' and a note with the size the session needs, not '2150%'", () => {
    const standIn = { modelID: "claude-sonnet-4-5", contextWindow: 200_000 };
    const over = meterText({ total: 86_000, fraction: 21.5 }, demo, standIn);
    expect(over.percent).toBe(">100%");
    expect(over.note).toBe("Demo model: 6.0k window — this session needs ~86k. Add an API key in Settings to continue it on claude-sonnet-4-5 (200k window).");
    // Within the window the figure is the usual one, and the note still says who answers.
    const within = meterText({ total: 2_000, fraction: 0.5 }, demo, standIn);
    expect(within.percent).toBe("50%");
    expect(within.note).toBe("The demo model (6.0k window) answers here, not claude-sonnet-4-5 (200k window): add an API key in Settings to continue on it.");
    // Without a stand-in: the figure as before, no note.
    expect(meterText({ total: 86_000, fraction: 21.5 }, demo, undefined)).toEqual({ percent: "2150%" });
  });
});
