import { describe, expect, it } from "vitest";
import { estimateTokens } from "../tokens/counter";
import { History, text } from "../compaction/test-fixtures";
import { constraintsIn, effectivePins, pinnedBlock, setPin, suggestionID, suggestPins } from "./pins";
import { keptUserWords, userWordsBudget } from "./user-words";

describe("constraintsIn", () => {
  it("finds rule-like sentences and leaves questions, plain requests and code out", () => {
    const t = "Fix the failing test in parser.ts. Never touch config/ or anything under it.\nAnswer in English, please!\nCan you only look at src?\n```\n// never do this\n```";
    expect(constraintsIn(t)).toEqual(["Never touch config/ or anything under it.", "Answer in English, please!"]);
  });
  it("keeps budgets and 'do not' rules", () => {
    expect(constraintsIn("Spend at most $2 on this. Do not add dependencies.")).toEqual(["Spend at most $2 on this.", "Do not add dependencies."]);
  });
});

describe("pins", () => {
  function session() {
    const h = new History();
    h.turn("Make the CSV importer handle quoted commas. Never touch config/.", []);
    h.turn("Looks good; now add a test.", []);
    h.turn("From now on always run the tests before you answer.", []);
    return h;
  }

  it("suggests the goal from the first message and every constraint, with stable ids", () => {
    const h = session();
    const pins = suggestPins(h.msgs);
    expect(pins.map((p) => [p.kind, p.text, p.state])).toEqual([
      ["goal", "Make the CSV importer handle quoted commas.", "suggested"],
      ["constraint", "Never touch config/.", "suggested"],
      ["constraint", "From now on always run the tests before you answer.", "suggested"],
    ]);
    expect(pins[1]?.id).toBe(suggestionID(h.msgs[0]?.info.id ?? "", 1));
    expect(suggestPins(h.msgs)).toEqual(pins);
  });

  it("stored records override suggestions; dismissed ones are not sent; the user's own are added", () => {
    const h = session();
    const [goal, rule] = suggestPins(h.msgs);
    if (!goal || !rule) throw new Error("fixture");
    let stored = setPin(undefined, { ...rule, state: "dismissed" });
    stored = setPin(stored, { id: "pin_own", kind: "constraint", text: "Keep the public API stable.", state: "accepted", time: 1 });
    stored = setPin(stored, { ...goal, text: "Quoted commas in CSV import", state: "accepted" });
    const pins = effectivePins(stored, h.msgs);
    const block = pinnedBlock(pins);
    expect(block).toContain("Goal: Quoted commas in CSV import");
    expect(block).not.toContain("Never touch config/");
    expect(block).toContain("- From now on always run the tests before you answer.");
    expect(block).toContain("- Keep the public API stable.");
    expect(pins.find((p) => p.id === rule.id)?.state).toBe("dismissed");
  });

  it("sends nothing when nothing is pinned", () => {
    expect(pinnedBlock([])).toBe("");
    const h = new History();
    h.turn("hi", []);
    expect(pinnedBlock(effectivePins(undefined, h.msgs))).toBe("");
  });
});

describe("keptUserWords", () => {
  const count = (t: string) => estimateTokens(t);
  it("returns the user's messages missing from the request, oldest dropped first when over the budget", () => {
    const h = new History();
    h.turn("Never touch config/.", [text("ok")]);
    h.turn("x".repeat(4_000), [text("ok")]);
    h.turn("Now the parser.", [text("ok")]);
    const sent = h.msgs.slice(4);
    const all = keptUserWords(h.msgs, sent, count);
    expect(all?.messages).toBe(2);
    expect(all?.text).toContain("[1] Never touch config/.");
    // A small budget keeps the newest only.
    const small = keptUserWords(h.msgs, sent, count, 1_003);
    expect(small?.messages).toBe(1);
    expect(small?.dropped).toBe(1);
    expect(small?.text).not.toContain("Never touch config/");
    expect(keptUserWords(h.msgs, h.msgs, count)).toBeUndefined();
  });
  it("cuts a pasted log to its start", () => {
    const h = new History();
    h.turn(`Here is the log: ${"line\n".repeat(5_000)}`, []);
    const r = keptUserWords(h.msgs, [], count);
    expect(r?.text).toContain("[… cut]");
    expect(r?.tokens ?? 0).toBeLessThan(2_200);
  });
});

describe("userWordsBudget", () => {
  it("keeps 20k tokens on large windows and a tenth of the input budget on small ones", () => {
    expect(userWordsBudget({ contextWindow: 400_000, maxOutputTokens: 32_000 })).toBe(20_000);
    expect(userWordsBudget({ contextWindow: 128_000, maxOutputTokens: 16_000 })).toBe(11_200);
    expect(userWordsBudget({ contextWindow: 32_000, maxOutputTokens: 4_000 })).toBe(2_800);
  });
});
