import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import { bigOutputTool } from "../../testing/tiny-model";
import { sessionUnpriced, unpricedSteps } from "../export/totals";
import { forkSession } from "./fork";
import { startFresh } from "./fresh";

/** The session row counts the steps and summaries that ran with no known price, beside the cost it keeps. */

const big = bigOutputTool;

const prices = (input: number, output: number) => ({ input, output, cacheRead: input / 10, cacheWrite: 0 });
const MAIN = { contextWindow: 4000, maxOutputTokens: 500, prices: prices(10, 40) };
const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000 };

describe("Session.unpriced", () => {
  it("a new session starts at 0 and each step on a model with no known price adds one; its cost stays out of the total", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 3 } }]), textTurn("Done.", usage)]);
    const { store, service } = makeTestService({ llm, tools: [big], settings: { modelID: "no-such-model-here" } });
    const s = await service.createSession();
    expect((await store.getSession(s.id))?.unpriced).toBe(0);
    await service.prompt(s.id, { text: "go" });
    await service.ensureRunning(s.id);
    const row = await store.getSession(s.id);
    expect(row?.unpriced).toBe(2);
    expect(row?.cost).toBe(0);
    // The row agrees with the messages' own marks.
    expect(unpricedSteps(await store.messages(s.id))).toBe(2);
  });

  it("steps on a priced model leave the count at 0", async () => {
    const llm = new FakeLLM([textTurn("Hi.", usage)]);
    const { store, service } = makeTestService({ llm, tools: [], settings: { modelID: "main", models: { main: MAIN } } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "hi" });
    await service.ensureRunning(s.id);
    const row = await store.getSession(s.id);
    expect(row?.unpriced).toBe(0);
    expect(row?.cost).toBeCloseTo(50, 9);
  });

  it("a summary written by a model with no known price is marked on its step-finish and counted on the row", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 4000 } }]), textTurn("## Goal\nDo the thing.\n## Progress\nCalled big.", usage), textTurn("Done.")]);
    const { store, service } = makeTestService({ llm, tools: [big], settings: { modelID: "main", summaryModelID: "no-such-summary-model", models: { main: MAIN } } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "go" });
    await service.ensureRunning(s.id);
    expect(llm.requests.map((r) => r.purpose)).toEqual(["chat", "summary", "chat"]);
    const msgs = await store.messages(s.id);
    const summary = msgs.find((m) => m.info.role === "assistant" && m.info.summary);
    const finish = summary?.parts.find((p) => p.type === "step-finish");
    expect(finish?.type === "step-finish" && finish.priceUnknown).toBe(true);
    // The chat steps ran on the priced model: only the summary is unpriced.
    expect((await store.getSession(s.id))?.unpriced).toBe(1);
    expect(unpricedSteps(msgs)).toBe(1);
  });

  it("a row stored before the count was kept gets it from the messages when its next run starts, then counts on", async () => {
    const llm = new FakeLLM([textTurn("One.", usage), textTurn("Two.", usage)]);
    const { store, service } = makeTestService({ llm, tools: [], settings: { modelID: "no-such-model-here" } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    // As an older version stored it: no count on the row.
    await store.updateSession(s.id, ({ unpriced: _unpriced, ...rest }) => rest);
    const old = await store.getSession(s.id);
    expect(old?.unpriced).toBeUndefined();
    // Until then, readers count the messages.
    expect(sessionUnpriced(old ?? {}, await store.messages(s.id))).toBe(1);
    await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    expect((await store.getSession(s.id))?.unpriced).toBe(2);
  });

  it("a fork counts the unpriced steps it copies", async () => {
    const llm = new FakeLLM([textTurn("One.", usage), textTurn("Two.", usage)]);
    const { store, service } = makeTestService({ llm, tools: [], settings: { modelID: "no-such-model-here" } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    const msgs = await store.messages(s.id);
    const firstAnswer = msgs.find((m) => m.info.role === "assistant");
    const { session: fork } = await forkSession(store, { sessionID: s.id, messageID: firstAnswer?.info.id ?? "", include: "through" }, Date.now());
    expect(fork.unpriced).toBe(1);
    expect((await store.getSession(fork.id))?.unpriced).toBe(1);
  });

  it("Start fresh copies no step (its cost starts at 0): its count starts at 0 too", async () => {
    const llm = new FakeLLM([textTurn("One.", usage)]);
    const { store, service } = makeTestService({ llm, tools: [], settings: { modelID: "no-such-model-here" } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    const answer = (await store.messages(s.id)).find((m) => m.info.role === "assistant");
    const { session } = await startFresh(store, { sessionID: s.id, messageID: answer?.info.id ?? "", now: Date.now() });
    expect([session.cost, session.unpriced]).toEqual([0, 0]);
  });

  it("sessionUnpriced reads the row's count, so a session whose older messages are not read yet is still counted", () => {
    expect(sessionUnpriced({ unpriced: 3 }, [])).toBe(3);
    expect(sessionUnpriced({ unpriced: 0 }, [])).toBe(0);
    expect(sessionUnpriced({}, [])).toBe(0);
  });
});
