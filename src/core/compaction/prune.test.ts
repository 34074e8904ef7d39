import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../testing/memory-store";
import type { ToolPart } from "../schema";
import { CLEARED_TOOL_OUTPUT, toModelMessages } from "../conversation/to-model";
import { applyPrune, planPrune, pruneSession } from "./prune";
import { compaction, History, makeSession, sized, text, tool } from "./test-fixtures";

/** Older turns with 10k-token outputs, then two recent turns with huge outputs (always protected). */
function history(opts: { first?: number; skill?: boolean } = {}) {
  const h = new History();
  const t = (id: string, tokens: number, name = "read") => tool(name, { filePath: id }, sized(tokens));
  if (opts.skill) h.turn("zero", [t("t0", 10_001)]);
  h.turn("one", opts.skill ? [t("t1", 10_000, "skill"), t("t2", 10_000)] : [t("t1", opts.first ?? 10_001), t("t2", 10_000)]);
  h.turn("two", [t("t3", 10_000), t("t4", 10_000)]);
  h.turn("three", [t("t5", 10_000), t("t6", 10_000)]);
  h.turn("four", [t("r1", 50_000)]);
  h.turn("five", [t("r2", 50_000)]);
  return h;
}

const ids = (parts: ToolPart[]) => parts.map((p) => p.state.input.filePath);

describe("planPrune", () => {
  it("keeps the newest 40k tokens of tool output and prunes older ones once more than 20k would be freed", () => {
    const plan = planPrune(history().msgs);
    expect(ids(plan.parts)).toEqual(["t2", "t1"]);
    expect(plan.pruned).toBe(20_001);
    expect(plan.kept).toBe(40_000);
  });

  it("never touches the last two turns", () => {
    const plan = planPrune(history().msgs);
    expect(ids(plan.parts)).not.toContain("r1");
    expect(ids(plan.parts)).not.toContain("r2");
    // Only two turns at all: nothing is eligible.
    const h = new History();
    h.turn("a", [tool("read", { filePath: "x" }, sized(200_000))]);
    h.turn("b", [tool("read", { filePath: "y" }, sized(200_000))]);
    expect(planPrune(h.msgs)).toEqual({ parts: [], pruned: 0, kept: 0 });
  });

  it("prunes nothing at exactly 20,000 tokens: OpenCode's test is strict", () => {
    const plan = planPrune(history({ first: 10_000 }).msgs);
    expect(plan.pruned).toBe(20_000);
    expect(plan.parts).toEqual([]);
  });

  it("prunes nothing when 19,999 tokens would be freed", () => {
    const plan = planPrune(history({ first: 9_999 }).msgs);
    expect(plan.pruned).toBe(19_999);
    expect(plan.parts).toEqual([]);
  });

  it("uses a fresh cached count instead of the estimate", () => {
    const h = history();
    const t1 = h.msgs[1]?.parts[0];
    if (t1?.type !== "tool" || t1.state.status !== "completed") throw new Error("fixture");
    const size = `read${JSON.stringify(t1.state.input)}\n${t1.state.output}`.length;
    t1.tokenCount = { encoding: "o200k_base", count: 9_999, size };
    expect(planPrune(h.msgs).parts).toEqual([]);
    // A stale count (different size) is ignored.
    t1.tokenCount = { encoding: "o200k_base", count: 9_999, size: size + 1 };
    expect(planPrune(h.msgs).pruned).toBe(20_001);
  });

  it("never prunes skill output", () => {
    const plan = planPrune(history({ skill: true }).msgs);
    expect(ids(plan.parts)).toEqual(["t2", "t0"]);
    expect(plan.parts.every((p) => p.tool !== "skill")).toBe(true);
  });

  it("stops at a summary", () => {
    const h = new History();
    h.turn("old", [tool("read", { filePath: "old" }, sized(50_000))]);
    const c = h.user(compaction(true));
    h.assistant([text("summary")], { summary: true, parent: c.info.id });
    const rest = history();
    h.msgs.push(...rest.msgs);
    expect(ids(planPrune(h.msgs).parts)).toEqual(["t2", "t1"]);
  });

  it("stops at an already pruned part", () => {
    const h = new History();
    h.turn("zero", [tool("read", { filePath: "x" }, sized(30_000))]);
    h.turn("one", [tool("read", { filePath: "t1" }, sized(10_000), { compacted: 5 }), tool("read", { filePath: "t2" }, sized(20_001))]);
    h.turn("two", [tool("read", { filePath: "t3" }, sized(10_000)), tool("read", { filePath: "t4" }, sized(10_000))]);
    h.turn("three", [tool("read", { filePath: "t5" }, sized(10_000)), tool("read", { filePath: "t6" }, sized(10_000))]);
    h.turn("four", []);
    h.turn("five", []);
    const plan = planPrune(h.msgs);
    expect(ids(plan.parts)).toEqual(["t2"]);
    expect(plan.pruned).toBe(20_001);
  });
});

describe("applyPrune / pruneSession", () => {
  it("marks the parts compacted in the store and the model then sees the placeholder", async () => {
    const h = history();
    const store = new MemoryStore();
    await store.importSession(makeSession(h.sessionID), h.msgs);
    const done = await pruneSession(store, h.sessionID, 1234);
    expect(ids(done)).toEqual(["t2", "t1"]);
    const msgs = await store.messages(h.sessionID);
    const marked = msgs.flatMap((m) => m.parts).filter((p): p is ToolPart => p.type === "tool" && p.state.status === "completed" && p.state.time.compacted === 1234);
    expect(ids(marked).sort()).toEqual(["t1", "t2"]);
    const results = toModelMessages(msgs).flatMap((m) => (m.role === "tool" ? m.content : []));
    expect(results.filter((r) => r.output === CLEARED_TOOL_OUTPUT)).toHaveLength(2);
    // A second prune finds nothing new: the walk stops at the pruned parts.
    expect(await pruneSession(store, h.sessionID, 5678)).toEqual([]);
  });

  it("applies nothing for an empty plan", async () => {
    const store = new MemoryStore();
    expect(await applyPrune(store, { parts: [], pruned: 0, kept: 0 }, 1)).toEqual([]);
  });
});
