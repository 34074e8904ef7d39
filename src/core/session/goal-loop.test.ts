import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import type { MessageWithParts } from "../schema";
import { GOAL_DONE_TOOL } from "./goal";
import { goalDoneTool } from "../tools/goal-done";
import { todoWriteTool } from "../tools/todo";
import { goalUsage, lastStep, parseGoal } from "./goal";

const spec = (arg: string) => {
  const r = parseGoal(arg);
  if (!r.ok) throw new Error(r.error);
  return r.spec;
};

/** Each scripted turn reports 100 in + 20 out = 120 tokens. */
const turns = (n: number) => Array.from({ length: n }, (_, i) => textTurn(`step ${i + 1}`));

const goalTexts = (msgs: MessageWithParts[], kind: "start" | "continue") =>
  msgs.filter((m) => m.info.role === "user" && m.parts.some((p) => p.type === "text" && p.synthetic && p.metadata?.goal === kind));

describe("/goal in the loop", () => {
  it("keeps working across turns and stops before a step would go past the token budget", async () => {
    const llm = new FakeLLM(turns(10));
    const { store, service, bus } = makeTestService({ llm, tools: [goalDoneTool] });
    const notices: string[] = [];
    bus.subscribe((ev) => {
      if (ev.type === "session.notice") notices.push(ev.message);
    });
    const s = await service.createSession();
    await service.setGoal(s.id, spec("count to ten until you reach ten budget 300 tokens"));
    await service.ensureRunning(s.id);
    // 120 → 240, and a third step of about 120 would reach 360 > 300: two turns, one "continue" message.
    expect(llm.requests).toHaveLength(2);
    expect(notices).toEqual(["Goal stopped within its budget of 300 tokens: 240 tokens used, and a step takes about 120 tokens."]);
    const session = await store.getSession(s.id);
    expect(session?.goal).toMatchObject({
      state: "spent",
      continues: 1,
      objective: "count to ten",
      until: "you reach ten",
    });
    expect(session?.goal?.time.ended).toBeTypeOf("number");
    // The objective is the session's pinned goal as well: "goal" means one thing.
    expect(session?.pins?.filter((p) => p.kind === "goal").map((p) => [p.text, p.state])).toEqual([["count to ten", "accepted"]]);
    const msgs = await store.messages(s.id);
    expect(goalTexts(msgs, "start")).toHaveLength(1);
    expect(goalTexts(msgs, "continue")).toHaveLength(1);
    // The model is told the goal, the stop condition and the budget (the app offers goal_done: prompt-wiring.test.ts).
    const first = llm.requests[0];
    const firstText = first?.messages[0]?.role === "user" && first.messages[0].content[0]?.type === "text" ? first.messages[0].content[0].text : "";
    expect(firstText).toContain("Goal: count to ten");
    expect(firstText).toContain("Stop when: you reach ten.");
    expect(firstText).toContain("Budget: 300 tokens");
    expect(first?.tools.map((t) => t.name)).toContain(GOAL_DONE_TOOL);
    const cont = llm.requests[1]?.messages.at(-1);
    expect(cont?.role === "user" && cont.content[0]?.type === "text" && cont.content[0].text).toContain("Used so far: 120 tokens of 300 tokens.");
    expect(service.goals.isArmed(s.id)).toBe(false);
    // What the goal used stays what it used when it ended, as the session goes on.
    await service.prompt(s.id, { text: "thanks" });
    await service.ensureRunning(s.id);
    const later = await store.getSession(s.id);
    if (!later?.goal) throw new Error("no goal");
    expect(goalUsage(later, later.goal).tokens).toBe(240);
  });

  it("a step before a summary does not judge the one after it", () => {
    const step = (id: string, extra: Record<string, unknown> = {}) => ({ info: { id, role: "assistant", finish: "stop", tokens: { input: 9, output: 1, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0, ...extra }, parts: [] }) as unknown as MessageWithParts;
    expect(lastStep([step("msg_1")])?.tokens.input).toBe(9);
    expect(lastStep([step("msg_1"), step("msg_2", { summary: true })])).toBeUndefined();
    expect(lastStep([step("msg_1"), step("msg_2", { summary: true }), step("msg_3", { tokens: { input: 2, output: 1, reasoning: 0, cache: { read: 0, write: 0 } } })])?.tokens.input).toBe(2);
  });

  it("a cost budget stops before a step would go past it", async () => {
    const llm = new FakeLLM(Array.from({ length: 10 }, () => textTurn("step", { inputTokens: 100_000, outputTokens: 0 })));
    // gpt-4o-mini: $0.15 per 1M input → $0.015 per turn.
    const { store, service } = makeTestService({ llm, tools: [goalDoneTool] });
    const s = await service.createSession();
    await service.setGoal(s.id, spec("do it budget $0.04"));
    await service.ensureRunning(s.id);
    // $0.015, $0.030, and a third would reach $0.045 > $0.04.
    expect(llm.requests).toHaveLength(2);
    expect((await store.getSession(s.id))?.goal?.state).toBe("spent");
  });

  it("stops when the model declares the condition met with goal_done", async () => {
    const llm = new FakeLLM([
      textTurn("Working on it."),
      toolTurn([
        {
          tool: GOAL_DONE_TOOL,
          input: { outcome: "met", summary: "All tests pass now." },
        },
      ]),
      textTurn("The tests pass."),
      textTurn("never sent"),
    ]);
    const { store, service, bus } = makeTestService({ llm, tools: [goalDoneTool] });
    const notices: string[] = [];
    bus.subscribe((ev) => {
      if (ev.type === "session.notice") notices.push(ev.message);
    });
    const s = await service.createSession();
    await service.setGoal(s.id, spec("fix the tests until they pass budget 1M tokens"));
    await service.ensureRunning(s.id);
    expect(llm.requests).toHaveLength(3);
    expect(llm.remaining()).toBe(1);
    const goal = (await store.getSession(s.id))?.goal;
    expect(goal).toMatchObject({
      state: "met",
      result: "All tests pass now.",
      continues: 1,
    });
    expect(notices).toEqual(["Goal met: All tests pass now."]);
  });

  it("after a reload the goal waits: a prompt is answered once, and it goes on only when resumed", async () => {
    const first = makeTestService({ llm: new FakeLLM(), tools: [goalDoneTool] });
    const s = await first.service.createSession();
    // Set in the first tab, which goes away before it runs.
    await first.service.goals.set(s.id, spec("write the docs budget 1000 tokens"));
    expect(first.service.goals.isArmed(s.id)).toBe(true);

    // The prompt's answer, then goal turns that work: a tool step (todowrite) and a text step each.
    const llm = new FakeLLM([textTurn("docs left: two pages"), ...Array.from({ length: 10 }, (_, i) => [toolTurn([{ tool: "todowrite", input: { todos: [] } }]), textTurn(`page ${i + 1}`)]).flat()]);
    const reloaded = makeTestService({ llm, tools: [goalDoneTool, todoWriteTool], store: first.store });
    expect((await reloaded.store.getSession(s.id))?.goal?.state).toBe("active");
    expect(reloaded.service.goals.isArmed(s.id)).toBe(false);
    await reloaded.service.prompt(s.id, { text: "what is left?" });
    await reloaded.service.ensureRunning(s.id);
    expect(llm.requests).toHaveLength(1);
    expect(goalTexts(await reloaded.store.messages(s.id), "continue")).toHaveLength(0);

    await reloaded.service.resumeGoal(s.id);
    await reloaded.service.ensureRunning(s.id);
    // 120 (the prompt's turn) + 120 per step: 960 after 7 more, and one more would reach 1080 > 1000.
    expect(llm.requests).toHaveLength(8);
    expect((await reloaded.store.getSession(s.id))?.goal?.state).toBe("spent");
    await expect(reloaded.service.resumeGoal(s.id)).rejects.toThrow("There is no goal to resume.");
  });

  it("pauses a goal whose model only talks: two answers in a row without a tool call (still active, for the user to resume)", async () => {
    const llm = new FakeLLM(turns(20));
    const { store, service, bus } = makeTestService({ llm, tools: [goalDoneTool] });
    const notices: string[] = [];
    bus.subscribe((ev) => {
      if (ev.type === "session.notice") notices.push(ev.message);
    });
    const s = await service.createSession();
    await service.setGoal(s.id, spec("make the tests pass until all pass budget $1"));
    await service.ensureRunning(s.id);
    // The start's answer and one "continue" answer, both words only: no third request.
    expect(llm.requests).toHaveLength(2);
    expect((await store.getSession(s.id))?.goal?.state).toBe("active");
    expect(service.goals.isArmed(s.id)).toBe(false);
    expect(notices).toEqual(["Goal paused: the model's last 2 answers called no tool, so it is not getting closer to the goal. Resume it to try again, or give it directions."]);
  });

  it("Stop leaves the goal active but disarmed (the UI asks to resume); /goal stop ends it", async () => {
    const llm = new FakeLLM(turns(50));
    llm.delayMs = 2;
    const { store, service } = makeTestService({ llm, tools: [goalDoneTool] });
    const s = await service.createSession();
    await service.setGoal(s.id, spec("loop budget 1M tokens"));
    while (llm.requests.length < 2) await new Promise((r) => setTimeout(r, 2));
    await service.stop(s.id);
    expect((await store.getSession(s.id))?.goal?.state).toBe("active");
    expect(service.goals.isArmed(s.id)).toBe(false);
    const sent = llm.requests.length;
    await new Promise((r) => setTimeout(r, 30));
    expect(llm.requests).toHaveLength(sent);
    await service.goals.stop(s.id);
    expect((await store.getSession(s.id))?.goal?.state).toBe("stopped");
    await service.goals.clear(s.id);
    expect((await store.getSession(s.id))?.goal).toBeUndefined();
  });

  it("a failed turn ends the run with the goal still active, for the user to look at", async () => {
    const llm = new FakeLLM([
      textTurn("one"),
      [
        {
          type: "error",
          error: {
            name: "APIError",
            data: { message: "bad request", isRetryable: false },
          },
        },
      ],
      textTurn("never"),
    ]);
    const { store, service } = makeTestService({ llm, tools: [goalDoneTool] });
    const s = await service.createSession();
    await service.setGoal(s.id, spec("go budget 1M tokens"));
    await service.ensureRunning(s.id);
    expect(llm.requests).toHaveLength(2);
    expect((await store.getSession(s.id))?.goal?.state).toBe("active");
    expect(service.goals.isArmed(s.id)).toBe(false);
  });
});
