import { describe, expect, it } from "vitest";
import { estimateTokens } from "../tokens/counter";
import { History, text } from "../compaction/test-fixtures";
import { constraintsIn, effectivePins, pinnedBlock, samePin, setPin, suggestionID, suggestPins, ruleWordsOf } from "./pins";
import { keptUserWords, pickUserWords, userWordsBudget, wordsOf } from "./user-words";

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

  it("a copy of a message read again gives the same pins, and an edited text gives the new ones", () => {
    const h = session();
    const first = suggestPins(h.msgs);
    // As the store hands them back: new objects, same ids and words.
    const copy = structuredClone(h.msgs);
    expect(suggestPins(copy)).toEqual(first);
    // Not parsed again: the copy gets the very words the first read worked out.
    expect(ruleWordsOf(copy[0] as (typeof copy)[number])).toBe(ruleWordsOf(h.msgs[0] as (typeof copy)[number]));
    const edited = structuredClone(h.msgs);
    const part = edited[0]?.parts[0];
    if (part?.type !== "text") throw new Error("fixture: the first part is text");
    part.text = "Port the importer to Rust. Always keep the old one working.";
    expect(suggestPins(edited).map((p) => p.text)).toEqual(["Port the importer to Rust.", "Always keep the old one working.", "From now on always run the tests before you answer."]);
    expect(suggestPins(copy)).toEqual(first);
  });

  it("a first message that opens with a rule keeps it as a constraint, and its task is the goal", () => {
    const h = new History();
    h.turn("Never touch config/. Fix the login bug in auth.ts.", []);
    expect(suggestPins(h.msgs).map((p) => [p.kind, p.text])).toEqual([
      ["goal", "Fix the login bug in auth.ts."],
      ["constraint", "Never touch config/."],
    ]);
    const only = new History();
    only.turn("Please never touch config/.", []);
    expect(suggestPins(only.msgs).map((p) => [p.kind, p.text])).toEqual([["constraint", "Please never touch config/."]]);
  });

  it("a first sentence with a rule word further in is the task: the goal, not also a constraint", () => {
    const h = new History();
    h.turn("Please add input validation to the signup form so that users do not lose what they typed. Never touch config/.", []);
    expect(suggestPins(h.msgs).map((p) => [p.kind, p.text])).toEqual([
      ["goal", "Please add input validation to the signup form so that users do not lose what they typed."],
      ["constraint", "Never touch config/."],
    ]);
    // Suggestion ids stay the sentence's place in the message: a stored record keeps matching it.
    expect(suggestPins(h.msgs)[1]?.id).toBe(suggestionID(h.msgs[0]?.info.id ?? "", 2));
  });

  it("a goal cut at a semicolon does not keep it", () => {
    const h = new History();
    h.turn("Tidy up the parser; keep the API as it is.", []);
    expect(suggestPins(h.msgs)[0]).toMatchObject({ kind: "goal", text: "Tidy up the parser" });
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
    expect(block).toContain("Goal: Quoted commas in CSV import\n");
    expect(block).not.toContain("Never touch config/");
    // A suggestion is said to be the user's words, not a pin they set; what they accepted or added is plain.
    expect(block).toContain("- From now on always run the tests before you answer. (the user's own words; not confirmed by the user)");
    expect(block).toContain("- Keep the public API stable.");
    expect(block).not.toContain("Keep the public API stable. (");
    expect(block).not.toContain("Pinned by the user");
    expect(pins.find((p) => p.id === rule.id)?.state).toBe("dismissed");
  });

  it("samePin: the pin in force with the same words; a constraint repeats the goal, a goal only the goal", () => {
    const pins = [
      { id: "pin_a", kind: "constraint" as const, text: "Use tabs.", state: "accepted" as const, time: 1 },
      { id: "sug_m_1", kind: "constraint" as const, text: "Answer in English.", state: "dismissed" as const, time: 1 },
      { id: "sug_m_0", kind: "goal" as const, text: "Fix the parser.", state: "suggested" as const, time: 1 },
    ];
    expect(samePin(pins, "constraint", " use\n TABS. ")?.id).toBe("pin_a");
    expect(samePin(pins, "constraint", "Answer in English.")).toBeUndefined();
    expect(samePin(pins, "constraint", "fix the parser.")?.id).toBe("sug_m_0");
    expect(samePin(pins, "goal", "Fix the parser.")?.id).toBe("sug_m_0");
    expect(samePin(pins, "goal", "Use tabs.")).toBeUndefined();
  });

  it("setPin keeps a stored pin's place and adds a new one last", () => {
    const a = { id: "pin_a", kind: "constraint" as const, text: "A.", state: "accepted" as const, time: 1 };
    const b = { ...a, id: "pin_b", text: "B." };
    expect(setPin(setPin([a, b], { ...a, text: "A2." }), { ...b, id: "pin_c" }).map((p) => p.text)).toEqual(["A2.", "B.", "B."]);
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
  it("returns the user's messages missing from the request: the first one, then the newest, the others dropped when over the budget", () => {
    const h = new History();
    h.turn("Never touch config/.", [text("ok")]);
    for (const w of ["alpha", "beta", "gamma"]) h.turn(`${w} `.repeat(16).trim(), [text("ok")]);
    h.turn("Now the parser.", [text("ok")]);
    h.turn("Then the lexer.", [text("ok")]);
    const sent = h.msgs.slice(10);
    const all = keptUserWords(h.msgs, sent, count);
    expect(all?.messages).toBe(5);
    expect(all?.text).toContain("[1] Never touch config/.");
    expect(all?.text).toContain("[5] Now the parser.");
    // A small budget keeps the first and the newest; the older ones in between do not fit.
    const small = keptUserWords(h.msgs, sent, count, 50);
    expect(small?.messages).toBe(3);
    expect(small?.dropped).toBe(2);
    expect(small?.text).toMatch(/^The user's earlier messages, verbatim \(the conversation they belong to was summarised above; 2 other ones did not fit\):\n\n\[1\] Never touch config\/\.\n\n\[2\] gamma [^[]*\n\n\[3\] Now the parser\.$/);
    expect(keptUserWords(h.msgs, h.msgs, count)).toBeUndefined();
  });
  it("cuts a long message to its start (at most half the budget)", () => {
    const h = new History();
    h.turn(`Here is the log: ${"line ".repeat(5_000)}`, []);
    const r = keptUserWords(h.msgs, [], count);
    expect(r?.text).toContain("[… cut]");
    expect(r?.tokens ?? 0).toBeLessThan(2_100);
    expect(keptUserWords(h.msgs, [], count, 800)?.tokens ?? 0).toBeLessThan(450);
  });
  it("leaves out acknowledgements and pasted blocks: a pasted log is not a rule", () => {
    const h = new History();
    h.turn("OK!", []);
    h.turn(`Tests fail, see below. Keep the public API as it is.\n\`\`\`\n${Array.from({ length: 40 }, (_, i) => `at frame ${i}`).join("\n")}\n\`\`\`\nFix it.`, []);
    h.turn("Run `make` with\n```\nmake -j4\n```", []);
    const r = keptUserWords(h.msgs, [], count);
    expect(r?.messages).toBe(2);
    expect(r?.text).toContain("[1] Tests fail, see below. Keep the public API as it is.\n[pasted block of 40 lines left out]\nFix it.");
    expect(r?.text).toContain("make -j4");
    expect(r?.text).not.toContain("OK!");
  });
});

describe("wordsOf", () => {
  it("drops bare acknowledgements and keeps short replies that say something", () => {
    for (const t of ["ok", "Thanks!", "go on", "LGTM.", "yes"]) expect(wordsOf(t)).toBe("");
    expect(wordsOf("ok, but never push")).toBe("ok, but never push");
  });
});

describe("pickUserWords", () => {
  it("keeps the first, then the newest until one does not fit; counts a long one at the cap", () => {
    expect(pickUserWords([100, 50, 50, 50], 1_000)).toMatchObject({ kept: [0, 1, 2, 3], tokens: 250, dropped: 0 });
    expect(pickUserWords([100, 50, 300, 50], 200)).toMatchObject({ kept: [0, 3], tokens: 150, dropped: 2 });
    // A long first one is cut to half the budget.
    expect(pickUserWords([500, 50, 50], 120)).toMatchObject({ kept: [0, 2], tokens: 110, cap: 60 });
    const cut = pickUserWords([50, 5_000], 1_000);
    expect(cut).toMatchObject({ kept: [0, 1], tokens: 550, cap: 500 });
    expect([...cut.cut]).toEqual([1]);
    expect(pickUserWords([50], 0).kept).toEqual([]);
  });
});

describe("userWordsBudget", () => {
  it("is a tenth of the usable window less the summary, at most 20k", () => {
    // usable: 400k − 32k − 20k = 348k → capped; 128k − 16k − 16k = 96k; 32k − 4k − 4k = 24k.
    expect(userWordsBudget({ contextWindow: 400_000, maxOutputTokens: 32_000 }, 4_000)).toBe(20_000);
    expect(userWordsBudget({ contextWindow: 128_000, maxOutputTokens: 16_000 })).toBe(9_600);
    expect(userWordsBudget({ contextWindow: 128_000, maxOutputTokens: 16_000 }, 3_000)).toBe(6_600);
    expect(userWordsBudget({ contextWindow: 32_000, maxOutputTokens: 4_000 }, 1_000)).toBe(1_400);
    expect(userWordsBudget({ contextWindow: 32_000, maxOutputTokens: 4_000 }, 5_000)).toBe(0);
  });
});

describe("mentions (the check after a summary: is each touched file still named in the request?)", () => {
  it("finds a path as a path, not inside a longer name", async () => {
    const { mentions } = await import("./after-compaction");
    expect(mentions("read /workspace/src/a.ts then", "src/a.ts")).toBe(true);
    expect(mentions("edited a.ts.", "a.ts")).toBe(true);
    expect(mentions("edited data.ts", "a.ts")).toBe(false);
    expect(mentions("edited a.tsx", "a.ts")).toBe(false);
    expect(mentions("see (notes.md)", "notes.md")).toBe(true);
  });
});
