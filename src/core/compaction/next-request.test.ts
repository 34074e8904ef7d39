import { describe, expect, it } from "vitest";
import { conversationView } from "../conversation/view";
import type { LLMToolSpec } from "../ports/llm";
import { defaultSettings } from "../settings";
import type { TokenCounter } from "../tokens/counter";
import { CountMemo, measureRequest } from "../tokens/request-size";
import { compaction, file, History, sized, text, tool } from "./test-fixtures";
import { nextRequestSize } from "./next-request";
import { contextXray } from "./xray";

const model = { contextWindow: 128_000, maxOutputTokens: 16_384 };
const settings = defaultSettings();
const specs: LLMToolSpec[] = [
  { name: "read", description: "Read a file", inputSchema: { type: "object" } },
  { name: "bash", description: "Run a command", inputSchema: { type: "object" } },
];
/** A deterministic "tokenizer" that differs from the chars/4 estimate, so exact and estimated counts can be told apart. */
const counter: TokenCounter = { encodingFor: () => "test", count: async (texts) => texts.map((t) => Math.ceil(t.length / 3)) };

function history() {
  const h = new History();
  h.user(text(sized(400)));
  h.assistant([text(sized(300)), tool("read", { filePath: "a.ts" }, sized(900))]);
  const tail = h.user(text(sized(50)), file("image/png", "a.png"));
  h.assistant([text(sized(120))]);
  const c = h.user(compaction(true, { tail_start_id: tail.info.id }));
  h.assistant([text(sized(80))], { summary: true, parent: c.info.id });
  h.user(text(sized(30)));
  return h.msgs;
}

describe("nextRequestSize", () => {
  it("is what the loop measures once every text has its exact count (system, tools and history)", async () => {
    const view = conversationView(undefined, history());
    const system = ["You are tabcode.", "<env>workspace</env>"];
    const memo = new CountMemo();
    // The loop's measure: counts everything, memoises system/tool texts, returns parts to persist.
    const measured = await measureRequest(counter, { system, tools: specs, messages: view.sent, encoding: "test" }, memo);
    const counted = new Map(measured.upserts.map((p) => [p.id, p]));
    const sent = view.sent.map((m) => ({ info: m.info, parts: m.parts.map((p) => counted.get(p.id) ?? p) }));
    const size = nextRequestSize({ sent, system, tools: specs, model, settings, encoding: "test", memo });
    expect(size.exact).toBe(true);
    expect(size.raw).toBe(measured.total);
    expect(size.system).toBe(measured.system);
    expect(size.tools).toBe(measured.tools);
    expect(size.messages).toBe(measured.messages);
  });

  it("estimates what has no count yet, applies calibration and gives the fraction of the usable window", () => {
    const view = conversationView(undefined, history());
    const size = nextRequestSize({ sent: view.sent, system: ["S".repeat(4000)], tools: specs, model, settings, encoding: "test", ratio: 1.5 });
    expect(size.exact).toBe(false);
    expect(size.system).toBeGreaterThanOrEqual(1000);
    expect(size.total).toBe(Math.ceil(size.raw * 1.5));
    expect(size.fraction).toBeCloseTo(size.total / size.usable);
    expect(size.usable).toBeLessThan(128_000 - 16_000);
    expect(size.usable).toBeGreaterThan(90_000);
  });

  it("is the X-ray's total, and the X-ray's sections add up to it", () => {
    const view = conversationView(undefined, history());
    const memo = new CountMemo();
    memo.set("test", "SYSTEM", 9);
    const input = { system: ["SYSTEM", "env text"], tools: specs, model, settings, encoding: "test", memo, ratio: 1.2 };
    const x = contextXray({ ...input, view });
    const size = nextRequestSize({ ...input, sent: view.sent });
    expect(x.total).toBe(size.total);
    expect(x.fraction).toBe(size.fraction);
    const sections = x.sections.reduce((n, s) => n + s.tokens, 0);
    // Sections leave out only the per-request overheads (reply priming and the system message's envelope).
    expect(size.raw - sections).toBeGreaterThan(0);
    expect(size.raw - sections).toBeLessThan(10);
    expect(x.sections.find((s) => s.key === "system:0")).toMatchObject({ tokens: 9, exact: true });
  });

  it("without system prompt and tools it is far smaller (what the views showed after a reload)", () => {
    const view = conversationView(undefined, history());
    const full = nextRequestSize({ sent: view.sent, system: ["x".repeat(8000)], tools: specs, model, settings, encoding: "test" });
    const bare = nextRequestSize({ sent: view.sent, model, settings, encoding: "test" });
    expect(full.total - bare.total).toBeGreaterThanOrEqual(2000);
  });
});
