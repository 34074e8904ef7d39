import { describe, expect, it } from "vitest";
import { namedError } from "../errors";
import type { LLMToolSpec } from "../ports/llm";
import { defaultSettings } from "../settings";
import { MESSAGE_OVERHEAD, REPLY_OVERHEAD } from "../tokens/part-text";
import { CountMemo, toolSpecText } from "../tokens/request-size";
import { compaction, file, History, sized, text, tool } from "./test-fixtures";
import { contextXray } from "./xray";
import { nextRequestSize } from "./next-request";
import { conversationView } from "../conversation/view";

const model = { contextWindow: 128_000, maxOutputTokens: 16_384 }; // usable 95,232
const settings = defaultSettings();
const spec: LLMToolSpec = { name: "read", description: "Read", inputSchema: {} };

describe("contextXray", () => {
  it("lists what the next call sends, with statuses for what it does not", () => {
    const h = new History();
    const old = h.user(text(sized(100)));
    h.assistant([text(sized(100))]);
    const tailUser = h.user(text(sized(10)), file("image/png", "a.png"));
    h.assistant([tool("read", { filePath: "x" }, sized(50), { compacted: 1 })]);
    const c = h.user(compaction(true, { tail_start_id: tailUser.info.id }));
    const s = h.assistant([text(sized(20))], { summary: true, parent: c.info.id });
    h.user(text(sized(5)));
    const failed = h.assistant([text("x")], { error: namedError("APIError", { message: "boom", isRetryable: false }) });
    const reverted = h.user(text("later"));

    const memo = new CountMemo();
    memo.set("enc", "SYSTEM", 7);
    const x = contextXray({ view: conversationView({ revert: { messageID: reverted.info.id } }, h.msgs), system: ["SYSTEM", "env"], tools: [spec], model, settings, encoding: "enc", memo });

    const byKey = new Map(x.sections.map((sec) => [sec.key, sec]));
    expect(byKey.get("system:0")).toMatchObject({ tokens: 7, exact: true });
    expect(byKey.get("system:1")).toMatchObject({ tokens: 1, exact: false });
    expect(byKey.get("tools")).toMatchObject({ tokens: Math.ceil(toolSpecText(spec).length / 4), label: "Tools (1)" });
    expect(byKey.get(old.info.id)).toMatchObject({ status: "summarised", tokens: 0, size: 100 + MESSAGE_OVERHEAD });
    expect(byKey.get(tailUser.info.id)).toMatchObject({ status: "sent", tail: true, media: 1, tokens: 10 + 1_500 + MESSAGE_OVERHEAD });
    const prunedMsg = x.sections.find((sec) => sec.pruned === 1);
    expect(prunedMsg).toMatchObject({ status: "sent", tail: true });
    expect(byKey.get(s.info.id)).toMatchObject({ status: "sent", summary: true, label: "Summary" });
    expect(byKey.get(c.info.id)).toMatchObject({ status: "sent", compaction: true });
    expect(byKey.get(failed.info.id)).toMatchObject({ status: "dropped", tokens: 0 });
    expect(byKey.get(reverted.info.id)).toMatchObject({ status: "reverted", tokens: 0 });
    expect(x.boundary).toEqual({ compactionID: c.info.id, summaryID: s.info.id, tailStartID: tailUser.info.id });

    // Order: system, tools, hidden, then the sent order [request, summary, tail…, newer…], then reverted.
    const order = x.sections.filter((sec) => sec.kind === "message").map((sec) => sec.status);
    expect(order).toEqual(["summarised", "summarised", "sent", "sent", "sent", "sent", "sent", "dropped", "reverted"]);
    expect(x.sections.filter((sec) => sec.kind === "message" && sec.status === "sent")[0]?.key).toBe(c.info.id);

    const sent = x.sections.reduce((n, sec) => n + sec.tokens, 0);
    expect(x.raw).toBe(sent + REPLY_OVERHEAD + MESSAGE_OVERHEAD);
    // No calibration learnt: the framing is all the total holds beside the sections.
    expect(x.extras).toEqual([{ key: "framing", label: "Request framing", tokens: REPLY_OVERHEAD + MESSAGE_OVERHEAD }]);
    expect(x.total).toBe(x.raw);
    expect(x.usable).toBe(95_232);
    expect(x.overflowAt).toBe(95_232);
    expect(x.fraction).toBeCloseTo(x.total / 95_232, 12);
    expect(x.exact).toBe(false);
  });

  it("shows the message after the summary (the user's words, re-added pins) right after it, counted in the total as the loop counts it", () => {
    const h = new History();
    h.user(text(sized(100)));
    h.assistant([text(sized(100))]);
    const c = h.user(compaction(true));
    const s = h.assistant([text(sized(20))], { summary: true, parent: c.info.id });
    h.user(text(sized(5)));
    const view = conversationView({}, h.msgs);
    const words = "Your earlier words: never touch config/.";
    const without = contextXray({ view, system: ["SYSTEM"], model, settings, encoding: "enc" });
    const x = contextXray({ view, system: ["SYSTEM"], model, settings, encoding: "enc", afterSummary: words });
    const keys = x.sections.map((sec) => sec.key);
    expect(keys[keys.indexOf(s.info.id) + 1]).toBe("after-summary");
    const extra = x.sections.find((sec) => sec.key === "after-summary");
    expect(extra).toMatchObject({ status: "sent", tokens: Math.ceil(words.length / 4) });
    expect(x.total).toBe(nextRequestSize({ sent: view.sent, system: ["SYSTEM", words], model, settings, encoding: "enc" }).total);
    expect(x.total).toBe(without.total + (extra?.tokens ?? 0));
  });

  it("applies the calibration ratio to the total", () => {
    const h = new History();
    h.user(text(sized(1_000)));
    const x = contextXray({ view: conversationView(undefined, h.msgs), model, settings, encoding: "e", ratio: 1.5 });
    expect(x.raw).toBe(1_000 + MESSAGE_OVERHEAD + REPLY_OVERHEAD);
    expect(x.total).toBe(Math.ceil(x.raw * 1.5));
    expect(x.boundary).toBeUndefined();
  });

  it("its rows add up to the total: the sections, the request's framing and the calibration (either way)", () => {
    const h = new History();
    const old = h.user(text(sized(400)));
    h.assistant([text(sized(300)), tool("read", { filePath: "x" }, sized(900))]);
    const c = h.user(compaction(true));
    h.assistant([text(sized(120))], { summary: true, parent: c.info.id });
    h.user(text(sized(50)));
    const later = h.user(text(sized(70)));
    const memo = new CountMemo();
    memo.set("enc", "SYSTEM", 2_000);
    const view = conversationView({ revert: { messageID: later.info.id } }, h.msgs);
    const sum = (x: ReturnType<typeof contextXray>) => x.sections.reduce((n, sec) => n + sec.tokens, 0) + x.extras.reduce((n, e) => n + e.tokens, 0);
    for (const ratio of [1, 1.134, 0.87]) {
      const x = contextXray({ view, system: ["SYSTEM", "env"], tools: [spec], model, settings, encoding: "enc", memo, ratio, afterSummary: "Your earlier words." });
      expect(sum(x)).toBe(x.total);
      // Summarised and reverted messages show their size but add nothing.
      expect(x.sections.find((sec) => sec.key === old.info.id)).toMatchObject({ status: "summarised", tokens: 0 });
      expect(x.sections.find((sec) => sec.key === later.info.id)).toMatchObject({ status: "reverted", tokens: 0 });
      expect(x.extras.find((e) => e.key === "framing")?.tokens).toBe(MESSAGE_OVERHEAD + REPLY_OVERHEAD);
      const calibration = x.extras.find((e) => e.key === "calibration");
      if (ratio === 1) expect(calibration).toBeUndefined();
      else expect(calibration).toEqual({ key: "calibration", label: "Calibration", tokens: x.total - x.raw, ratio });
    }
  });

  it("reports exact when every sent part has a fresh cached count", () => {
    const h = new History();
    const u = h.user(text("abcd"));
    const p = u.parts[0];
    if (p) p.tokenCount = { encoding: "e", count: 9, size: 4 };
    const x = contextXray({ view: conversationView(undefined, h.msgs), model, settings, encoding: "e" });
    expect(x.exact).toBe(true);
    expect(x.raw).toBe(9 + MESSAGE_OVERHEAD + REPLY_OVERHEAD);
  });
});
