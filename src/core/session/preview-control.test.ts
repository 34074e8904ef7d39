import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import type { Clock } from "../ports/clock";
import type { MessageWithParts } from "../schema";
import { bigOutputTool as big, TINY_MODEL as TINY } from "../../testing/tiny-model";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { workspaceTools } from "../tools/index";

const summaryTurn = () => textTurn("## Goal\nDo the thing.\n## Progress\nCalled big.");

/** A clock whose sleeps end only when the test says so (or when aborted). */
class HeldClock implements Clock {
  private t = 1_000_000;
  private wakers: (() => void)[] = [];
  slept: number[] = [];
  now = () => this.t++;
  sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      this.slept.push(ms);
      this.wakers.push(resolve);
      signal?.addEventListener("abort", () => reject(new DOMException("Aborted", "AbortError")), { once: true });
    });
  wake(): void {
    for (const w of this.wakers.splice(0)) w();
  }
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  if (!cond()) throw new Error("timed out");
};

function setup(llm: FakeLLM, clock: Clock) {
  return makeTestService({ llm, tools: [big], clock, compactionGraceMs: 4000, settings: { modelID: "tiny", models: { tiny: TINY } } });
}

const purposes = (llm: FakeLLM) => llm.requests.map((r) => r.purpose);
const hasSummary = (msgs: MessageWithParts[]) => msgs.some((m) => m.info.role === "assistant" && m.info.summary);

describe("automatic summary: preview and grace", () => {
  it("waits with a preview; the grace running out starts the summary", async () => {
    const clock = new HeldClock();
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 4000 } }], { inputTokens: 100, outputTokens: 10 }), summaryTurn(), textTurn("Done.")]);
    const { service, store } = setup(llm, clock);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "Call big once." });
    const run = service.ensureRunning(s.id);
    await until(() => service.getPendingSummaries().has(s.id));
    const pending = service.getPendingSummaries().get(s.id);
    expect(clock.slept).toContain(4000);
    // The user message, the answer with the 4,000-word output: two messages, thousands of tokens, into a few hundred up to 2k.
    expect(pending?.preview.messages).toBe(2);
    expect(pending?.preview.tokens).toBeGreaterThan(3000);
    expect(pending?.preview.target).toBeLessThanOrEqual(2000);
    expect(purposes(llm)).toEqual(["chat"]);
    clock.wake();
    await run;
    expect(purposes(llm)).toEqual(["chat", "summary", "chat"]);
    expect(service.getPendingSummaries().size).toBe(0);
    expect(hasSummary(await store.messages(s.id))).toBe(true);
  });

  it("Summarise now starts it at once; Cancel sends the request without a summary", async () => {
    const clock = new HeldClock();
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 4000 } }], { inputTokens: 100, outputTokens: 10 }), summaryTurn(), textTurn("Done.")]);
    const { service } = setup(llm, clock);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "Call big once." });
    const run = service.ensureRunning(s.id);
    await until(() => service.getPendingSummaries().has(s.id));
    service.chooseSummary(s.id, "now");
    await run;
    expect(purposes(llm)).toEqual(["chat", "summary", "chat"]);

    const clock2 = new HeldClock();
    const llm2 = new FakeLLM([toolTurn([{ tool: "big", input: { n: 4000 } }], { inputTokens: 100, outputTokens: 10 }), textTurn("Done without a summary.")]);
    const b = setup(llm2, clock2);
    const s2 = await b.service.createSession();
    await b.service.prompt(s2.id, { text: "Call big once." });
    const run2 = b.service.ensureRunning(s2.id);
    await until(() => b.service.getPendingSummaries().has(s2.id));
    b.service.chooseSummary(s2.id, "cancel");
    await run2;
    expect(purposes(llm2)).toEqual(["chat", "chat"]);
    expect(hasSummary(await b.store.messages(s2.id))).toBe(false);
  });

  it("Stop during the grace ends the run without a summary", async () => {
    const clock = new HeldClock();
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 4000 } }], { inputTokens: 100, outputTokens: 10 }), summaryTurn()]);
    const { service, store } = setup(llm, clock);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "Call big once." });
    const run = service.ensureRunning(s.id);
    await until(() => service.getPendingSummaries().has(s.id));
    service.abort(s.id);
    await run;
    expect(purposes(llm)).toEqual(["chat"]);
    expect(hasSummary(await store.messages(s.id))).toBe(false);
  });
});

describe("Summarise up to here", () => {
  it("folds the turns up to the chosen message and keeps the later ones verbatim; undo brings everything back exactly", async () => {
    const llm = new FakeLLM([textTurn("First answer."), textTurn("Second answer."), textTurn("Third answer."), summaryTurn(), textTurn("After.")]);
    const { service, store } = makeTestService({ llm, tools: [] });
    const s = await service.createSession();
    for (const q of ["One?", "Two?", "Three?"]) {
      await service.prompt(s.id, { text: q });
      await service.ensureRunning(s.id);
    }
    const before = await store.messages(s.id);
    const firstAnswer = before.find((m) => m.parts.some((p) => p.type === "text" && p.text === "First answer."));
    if (!firstAnswer) throw new Error("no answer");
    const preview = await service.previewCompaction(s.id, firstAnswer.info.id);
    expect(preview.messages).toBe(2);
    expect(preview.tailStartID).toBe(before[2]?.info.id);
    await service.compact(s.id, { upTo: firstAnswer.info.id });
    // The summary request held only the first turn.
    const summaryReq = JSON.stringify(llm.requests.at(-1)?.messages);
    expect(summaryReq).toContain("One?");
    expect(summaryReq).not.toContain("Two?");
    await service.prompt(s.id, { text: "Four?" });
    await service.ensureRunning(s.id);
    const sent = JSON.stringify(llm.requests.at(-1)?.messages);
    expect(sent).not.toContain("First answer.");
    for (const t of ["Do the thing.", "Two?", "Second answer.", "Three?", "Third answer.", "Four?"]) expect(sent).toContain(t);
    // Compaction added messages and never changed a stored one.
    const after = await store.messages(s.id);
    for (const m of before) expect(after.find((x) => x.info.id === m.info.id)).toEqual(m);
  });
});

describe("pins through the service", () => {
  it("adds, edits, dismisses and removes; refuses empty text in words", async () => {
    const { service, store } = makeTestService({ llm: new FakeLLM([]), tools: [] });
    const s = await service.createSession();
    expect(await service.addPin(s.id, { kind: "constraint", text: "   " })).toEqual({ ok: false, error: "A pin needs some text." });
    const added = await service.addPin(s.id, { kind: "constraint", text: "Never  touch config/." });
    if (!added.ok) throw new Error(added.error);
    expect(added.pin).toMatchObject({ kind: "constraint", text: "Never touch config/.", state: "accepted" });
    expect(await service.savePin(s.id, { ...added.pin, text: "Never touch config/ or env/." })).toEqual({ ok: true });
    const suggestion = { id: "sug_msg_x_1", kind: "constraint" as const, text: "Answer in English.", state: "suggested" as const, time: 1 };
    await service.removePin(s.id, suggestion);
    await service.removePin(s.id, { ...added.pin });
    expect((await store.getSession(s.id))?.pins).toEqual([{ ...suggestion, state: "dismissed" }]);
  });

  it("does not add a pin in force again (whitespace and case aside) and says so; one the user's message suggested is accepted instead", async () => {
    const { service, store, bus } = makeTestService({ llm: new FakeLLM([textTurn("Ok.")]), tools: [] });
    const notices: string[] = [];
    bus.subscribe((ev) => {
      if (ev.type === "session.notice") notices.push(ev.message);
    });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "Fix the parser. Never touch config/." });
    await service.ensureRunning(s.id);
    const first = await service.addPin(s.id, { kind: "constraint", text: "Use tabs." });
    if (!first.ok) throw new Error(first.error);
    expect(first.already).toBeUndefined();
    const again = await service.addPin(s.id, { kind: "constraint", text: "  use   TABS. " });
    expect(again).toEqual({ ok: true, pin: first.pin, already: "pinned" });
    expect(notices).toEqual(["“Use tabs.” is already pinned."]);
    // The suggestion from the message: accepted, not repeated.
    const suggested = await service.addPin(s.id, { kind: "constraint", text: "never touch config/." });
    expect(suggested).toMatchObject({ ok: true, already: "suggested", pin: { text: "Never touch config/.", state: "accepted" } });
    expect(notices[1]).toBe("“Never touch config/.” was already pinned as a suggestion from your message; it is now accepted.");
    // A constraint with the goal's words repeats the goal; a goal repeats only the goal.
    expect(await service.addPin(s.id, { kind: "constraint", text: "Fix the parser." })).toMatchObject({ already: "suggested" });
    const pins = (await store.getSession(s.id))?.pins;
    expect(pins?.map((p) => [p.kind, p.text, p.state])).toEqual([
      ["constraint", "Use tabs.", "accepted"],
      ["constraint", "Never touch config/.", "accepted"],
      ["goal", "Fix the parser.", "accepted"],
    ]);
    expect(await service.addPin(s.id, { kind: "goal", text: "Use tabs." })).not.toHaveProperty("already");
  });

  it("an edited pin keeps its place", async () => {
    const { service, store } = makeTestService({ llm: new FakeLLM([]), tools: [] });
    const s = await service.createSession();
    const a = await service.addPin(s.id, { kind: "constraint", text: "Use tabs." });
    await service.addPin(s.id, { kind: "constraint", text: "Answer in English." });
    if (!a.ok) throw new Error(a.error);
    await service.savePin(s.id, { ...a.pin, text: "Use tabs, never spaces." });
    expect((await store.getSession(s.id))?.pins?.map((p) => p.text)).toEqual(["Use tabs, never spaces.", "Answer in English."]);
  });
});

describe("Start fresh from here", () => {
  it("creates a linked child with the pins in force and a brief of goal, constraints, files and links back", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "big", input: { n: 3 } }]), textTurn("Done.")]);
    const { service, store } = makeTestService({ llm, tools: [big] });
    const s = await service.createSession({ title: "Parser work" });
    await service.prompt(s.id, { text: "Fix the CSV parser. Never touch config/." });
    await service.ensureRunning(s.id);
    const added = await service.addPin(s.id, { kind: "constraint", text: "Answer in English." });
    if (!added.ok) throw new Error(added.error);
    const msgs = await store.messages(s.id);
    const last = msgs.at(-1);
    if (!last) throw new Error("no messages");
    const { session: child, brief } = await service.startFresh(s.id, last.info.id);
    expect(child).toMatchObject({ parentID: s.id, fork: { sessionID: s.id, messageID: last.info.id }, title: "Parser work (fresh)" });
    // What the parent only suggested stays a suggestion; what the user accepted stays accepted.
    expect(child.pins?.map((p) => [p.kind, p.text, p.state])).toEqual([
      ["goal", "Fix the CSV parser.", "suggested"],
      ["constraint", "Never touch config/.", "suggested"],
      ["constraint", "Answer in English.", "accepted"],
    ]);
    expect(await store.messages(child.id)).toEqual([]);
    expect(brief).toContain(`Continuing from the session [“Parser work”](#/s/${s.id}/m/${last.info.id})`);
    expect(brief).toContain("## Goal\nFix the CSV parser.");
    expect(brief).toContain("## Constraints\n- Never touch config/.\n- Answer in English.");
    expect(brief).toContain(`- [Fix the CSV parser. Never touch config/.](#/s/${s.id}/m/${msgs[0]?.info.id})`);
    expect(await store.getSession(s.id)).toMatchObject({ id: s.id, title: "Parser work" });
  });

  it("from a person's message: its whole turn, the answer's files too (as Summarise up to here reads it)", async () => {
    const llm = new FakeLLM([
      toolTurn([{ tool: "write", input: { filePath: "/workspace/a.txt", content: "a" } }]),
      textTurn("one"),
      toolTurn([{ tool: "write", input: { filePath: "/workspace/c.txt", content: "c" } }]),
      textTurn("two"),
      toolTurn([{ tool: "write", input: { filePath: "/workspace/d.txt", content: "d" } }]),
      textTurn("three"),
    ]);
    const sandbox = await createLocalSandboxForTests({});
    const { service } = makeTestService({ llm, tools: workspaceTools, sandbox });
    const s = await service.createSession({ title: "Three turns" });
    await service.prompt(s.id, { text: "Turn 1" });
    await service.ensureRunning(s.id);
    const second = await service.prompt(s.id, { text: "Turn 2" });
    await service.ensureRunning(s.id);
    await service.prompt(s.id, { text: "Turn 3" });
    await service.ensureRunning(s.id);
    const { brief } = await service.startFresh(s.id, second.id);
    expect(brief).toContain("## Files\n- a.txt (written)\n- c.txt (written)\n");
    expect(brief).not.toContain("d.txt");
  });
});
