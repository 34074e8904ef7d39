import { describe, expect, it } from "vitest";
import { History, text } from "../compaction/test-fixtures";
import type { MessageWithParts } from "../schema";
import { countTexts } from "../../adapters/tokens/tiktoken-counter";
import { utf8Length } from "../util/utf8";
import { charsPerToken, DEFAULT_CHARS_PER_TOKEN, estimateRequestSize, measureRequest } from "./request-size";
import type { TokenCounter } from "./counter";

const counter: TokenCounter = { encodingFor: () => "o200k_base", count: countTexts };

/** A history whose parts carry exact cached counts (as after one request). */
async function countedHistory(turns: number): Promise<MessageWithParts[]> {
  const h = new History();
  for (let i = 0; i < turns; i++) {
    h.user(text(`Please look at src/file${i}.ts and explain what \`render(${i})\` does, step by step.`));
    h.assistant([text(`The function \`render\` in file${i}.ts builds the list:\n\n- it reads the items\n- it sorts them by date (${i})\n\n\`\`\`ts\nconst out = items.sort((a, b) => a.t - b.t);\n\`\`\``)]);
  }
  const size = await measureRequest(counter, { system: [], tools: [], messages: h.msgs, encoding: "o200k_base" });
  const byId = new Map(size.upserts.map((p) => [p.id, p]));
  return h.msgs.map((m) => ({ info: m.info, parts: m.parts.map((p) => byId.get(p.id) ?? p) }));
}

describe("estimate of a request while the tokenizer loads", () => {
  it("utf8Length counts bytes, including astral characters and lone surrogates", () => {
    expect(utf8Length("abc")).toBe(3);
    expect(utf8Length("é")).toBe(2);
    expect(utf8Length("日本")).toBe(6);
    expect(utf8Length("😀")).toBe(4);
    expect(utf8Length("\ud800")).toBe(3);
  });

  it("learns characters per token from the history's own exact counts", async () => {
    const msgs = await countedHistory(40);
    const rate = charsPerToken(msgs, "o200k_base");
    expect(rate).not.toBe(DEFAULT_CHARS_PER_TOKEN);
    expect(rate).toBeGreaterThan(2);
    expect(rate).toBeLessThan(6);
    // Counts in another encoding do not calibrate this one; too little text keeps the default.
    expect(charsPerToken(msgs, "cl100k_base")).toBe(DEFAULT_CHARS_PER_TOKEN);
    expect(charsPerToken(msgs.slice(0, 2), "o200k_base")).toBe(DEFAULT_CHARS_PER_TOKEN);
  });

  it("keeps cached counts exact, estimates only new texts, and bounds the true count", async () => {
    const msgs = await countedHistory(40);
    const h = new History(msgs[0]?.info.sessionID);
    const prompt = "Now rewrite render() so that it sorts by name, then date — and add tests (日本語のコメントも).";
    h.user(text(prompt));
    const input = { system: ["You are tabcode.", "Environment: a browser sandbox."], tools: [], messages: [...msgs, ...h.msgs], encoding: "o200k_base" };
    const quick = estimateRequestSize(input);
    const exact = await measureRequest(counter, input);
    expect(quick.exact).toBe(false);
    expect(quick.upserts).toEqual([]);
    expect(quick.counted).toBe(3);
    const upper = quick.estimate?.upper ?? 0;
    expect(exact.total).toBeLessThanOrEqual(upper);
    // Only three short texts are estimated: the total is within a few tokens of the exact count.
    expect(Math.abs(quick.total - exact.total)).toBeLessThan(15);
    expect(upper - exact.total).toBeLessThan(utf8Length(prompt) + 60);
  });

  it("the bound holds for text that tokenizes badly (CJK, emoji, random symbols)", async () => {
    const h = new History();
    h.user(text("😀🎉🚀".repeat(200)));
    h.user(text("鑑賞する際の注意点について説明してください。".repeat(50)));
    h.user(text(Array.from({ length: 2000 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 94))).join("")));
    const input = { system: [], tools: [], messages: h.msgs, encoding: "o200k_base" };
    const exact = await measureRequest(counter, input);
    expect(exact.total).toBeLessThanOrEqual(estimateRequestSize(input).estimate?.upper ?? 0);
  });
});
