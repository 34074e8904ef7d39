import { describe, expect, it } from "vitest";
import { file, History, reasoning, text, tool } from "../compaction/test-fixtures";
import type { LLMToolSpec } from "../ports/llm";
import type { MessageWithParts, Part } from "../schema";
import { toModelMessages } from "../conversation/to-model";
import type { TokenCounter } from "./counter";
import { IMAGE_TOKENS, MESSAGE_OVERHEAD, partCost, REPLY_OVERHEAD } from "./part-text";
import { CountMemo, finishRequestSize, measureRequest, planRequestSize, toolSpecText } from "./request-size";

/** Counts one token per character and records what it was asked. */
class RecordingCounter implements TokenCounter {
  calls: string[][] = [];
  encodingFor(): string {
    return "chars";
  }
  async count(texts: string[]): Promise<number[]> {
    this.calls.push(texts);
    return texts.map((t) => t.length);
  }
}

const spec: LLMToolSpec = { name: "read", description: "Read a file", inputSchema: { type: "object" } };

function applyUpserts(msgs: MessageWithParts[], upserts: Part[]): MessageWithParts[] {
  const byId = new Map(upserts.map((p) => [p.id, p]));
  return msgs.map((m) => ({ info: m.info, parts: m.parts.map((p) => byId.get(p.id) ?? p) }));
}

describe("request size", () => {
  it("serialises a tool spec once (the loop and the header size every request)", () => {
    let reads = 0;
    const spec = {
      name: "t",
      description: "d",
      get inputSchema() {
        reads++;
        return { type: "object" };
      },
    } as LLMToolSpec;
    const first = toolSpecText(spec);
    expect(toolSpecText(spec)).toBe(first);
    expect(first).toBe('{"name":"t","description":"d","parameters":{"type":"object"}}');
    expect(reads).toBe(1);
  });

  it("adds system, tools, parts and framing exactly", async () => {
    const h = new History();
    h.user(text("hello"));
    h.assistant([text("hi")]);
    const counter = new RecordingCounter();
    const size = await measureRequest(counter, { system: ["abcd"], messages: h.msgs, tools: [spec], encoding: "chars" });
    const toolLen = toolSpecText(spec).length;
    expect(size.system).toBe(4 + MESSAGE_OVERHEAD);
    expect(size.tools).toBe(toolLen);
    expect(size.messages).toBe(5 + 2 + 2 * MESSAGE_OVERHEAD + REPLY_OVERHEAD);
    expect(size.total).toBe(size.system + size.tools + size.messages);
    expect(size.counted).toBe(4);
    expect(size.exact).toBe(true);
  });

  it("counts only new or changed parts once counts are cached", async () => {
    const h = new History();
    h.user(text("first question"));
    h.assistant([text("first answer"), tool("read", { filePath: "a.ts" }, "content of a")]);
    const counter = new RecordingCounter();
    const memo = new CountMemo();
    const input = { system: ["sys"], tools: [spec], encoding: "chars" };
    const first = await measureRequest(counter, { ...input, messages: h.msgs }, memo);
    expect(first.upserts.map((p) => p.tokenCount)).toEqual([
      { encoding: "chars", count: 14, size: 14 },
      { encoding: "chars", count: 12, size: 12 },
      { encoding: "chars", count: 36, size: 36 }, // read{"filePath":"a.ts"}\ncontent of a
    ]);
    let msgs = applyUpserts(h.msgs, first.upserts);

    counter.calls = [];
    const again = await measureRequest(counter, { ...input, messages: msgs }, memo);
    expect(counter.calls).toEqual([]);
    expect(again.counted).toBe(0);
    expect(again.total).toBe(first.total);
    expect(again.upserts).toEqual([]);

    // One new message: only its text is counted.
    const h2 = new History(h.sessionID);
    h2.user(text("second"));
    msgs = [...msgs, ...h2.msgs];
    const third = await measureRequest(counter, { ...input, messages: msgs }, memo);
    expect(counter.calls).toEqual([["second"]]);
    expect(third.total).toBe(first.total + 6 + MESSAGE_OVERHEAD);
  });

  it("a part object counted once is known without its count on it; a copy of it, or the same object changed, is counted again", async () => {
    const h = new History();
    h.user(text("hello there"));
    h.assistant([text("general kenobi")]);
    const counter = new RecordingCounter();
    const first = await measureRequest(counter, { system: [], messages: h.msgs, tools: [], encoding: "chars" });
    expect(first.counted).toBe(2);
    // The counts were not written onto the parts (the screen's rows are never changed by the loop)…
    expect(h.msgs.flatMap((m) => m.parts).every((p) => p.tokenCount === undefined)).toBe(true);
    // …and the same objects are known all the same.
    const again = planRequestSize({ system: [], messages: h.msgs, tools: [], encoding: "chars" });
    expect(again.jobs).toEqual([]);
    expect(finishRequestSize(again, []).total).toBe(first.total);
    // In another encoding, or as another object (a part read again from storage), it is counted.
    expect(planRequestSize({ system: [], messages: h.msgs, tools: [], encoding: "other" }).jobs).toHaveLength(2);
    const copies = h.msgs.map((m) => ({ info: m.info, parts: m.parts.map((p) => ({ ...p })) }));
    expect(planRequestSize({ system: [], messages: copies, tools: [], encoding: "chars" }).jobs).toHaveLength(2);
    // A text that grew in place (a streamed part) no longer matches the length that was counted.
    const part = h.msgs[1]?.parts[0];
    if (part?.type !== "text") throw new Error("no text part");
    part.text += " and more";
    expect(planRequestSize({ system: [], messages: h.msgs, tools: [], encoding: "chars" }).jobs.map((j) => j.text)).toEqual([part.text]);
  });

  it("recounts a part whose text length or encoding changed", () => {
    const h = new History();
    const u = h.user(text("abc"));
    const p = u.parts[0];
    if (p?.type !== "text") throw new Error("fixture");
    p.tokenCount = { encoding: "chars", count: 3, size: 3 };
    expect(planRequestSize({ system: [], tools: [], messages: h.msgs, encoding: "chars" }).jobs).toEqual([]);
    p.text = "abcd";
    expect(planRequestSize({ system: [], tools: [], messages: h.msgs, encoding: "chars" }).jobs.map((j) => j.text)).toEqual(["abcd"]);
    p.text = "abc";
    expect(planRequestSize({ system: [], tools: [], messages: h.msgs, encoding: "o200k_base" }).jobs).toHaveLength(1);
  });

  it("gives media a flat cost, or counts its placeholder when stripped", () => {
    const h = new History();
    h.user(text("look"), file("image/png", "shot.png"));
    const plain = planRequestSize({ system: [], tools: [], messages: h.msgs, encoding: "chars" });
    expect(plain.jobs.map((j) => j.text)).toEqual(["look"]);
    expect(plain.known.messages).toBe(IMAGE_TOKENS + MESSAGE_OVERHEAD + REPLY_OVERHEAD);
    const stripped = planRequestSize({ system: [], tools: [], messages: h.msgs, encoding: "chars", stripMedia: true });
    expect(stripped.jobs.map((j) => j.text)).toEqual(["look", "[Attached image/png: shot.png]"]);
  });

  it("an image a tool read costs its flat figure on top of the result's text, until the output is pruned", () => {
    const png = { mime: "image/png", filename: "logo.png", url: "data:image/png;base64,AAAA" };
    const known = (compacted?: number) => {
      const h = new History();
      h.user(text("look"));
      h.assistant([tool("read", { filePath: "logo.png" }, "Image read successfully", { attachments: [png], compacted })]);
      return planRequestSize({ system: [], tools: [], messages: h.msgs, encoding: "chars" }).known.messages;
    };
    expect(known()).toBe(IMAGE_TOKENS + 3 * MESSAGE_OVERHEAD + REPLY_OVERHEAD);
    expect(known(5)).toBe(3 * MESSAGE_OVERHEAD + REPLY_OVERHEAD);
  });

  it("falls back to estimates when the counter fails, and persists nothing", async () => {
    const h = new History();
    h.user(text("x".repeat(40)));
    const failing: TokenCounter = { encodingFor: () => "chars", count: () => Promise.reject(new Error("worker died")) };
    const size = await measureRequest(failing, { system: [], tools: [], messages: h.msgs, encoding: "chars" });
    expect(size.exact).toBe(false);
    expect(size.upserts).toEqual([]);
    expect(size.messages).toBe(10 + MESSAGE_OVERHEAD + REPLY_OVERHEAD);
  });

  it("never persists estimate-encoding counts", () => {
    const h = new History();
    h.user(text("abcd"));
    const plan = planRequestSize({ system: [], tools: [], messages: h.msgs, encoding: "estimate" });
    expect(finishRequestSize(plan, [1]).upserts).toEqual([]);
  });

  it("mirrors toModelMessages part by part", () => {
    const h = new History();
    h.user(text("q"), text("hidden", { ignored: true }), file("text/plain", "a.txt"));
    h.assistant([reasoning("think"), text("answer"), tool("bash", { command: "ls" }, "a\nb", { attachments: [{ mime: "image/png", filename: "p.png", url: "data:," }] })]);
    h.assistant([tool("read", { filePath: "x" }, "boom", { status: "error" }), tool("read", { filePath: "y" }, "", { status: "running" })]);
    const costs = h.msgs.flatMap((m) => m.parts.map((p) => partCost(p, m.info.role))).flatMap((c) => (c.kind === "text" ? [c.text] : []));
    const all = costs.join("\n");
    for (const m of toModelMessages(h.msgs))
      for (const c of m.content) {
        if (c.type === "text" || c.type === "reasoning") expect(costs).toContain(c.text);
        else if (c.type === "tool-call") expect(all).toContain(`${c.tool}${JSON.stringify(c.input)}`);
        else if (c.type === "tool-result") expect(all).toContain(c.output);
      }
    expect(all).not.toContain("hidden");
  });
});
