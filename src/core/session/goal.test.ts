import { describe, expect, it } from "vitest";
import { DEFAULT_GOAL_BUDGET, goalStalled, goalUsage, parseBudget, parseGoal } from "./goal";
import type { Goal, MessageWithParts } from "../schema";
import { Session } from "../schema";

describe("/goal syntax", () => {
  it("reads objective, stop condition and budget", () => {
    expect(parseGoal("make the tests pass until npm test exits 0 budget 50k tokens")).toEqual({
      ok: true,
      spec: {
        objective: "make the tests pass",
        until: "npm test exits 0",
        budget: { kind: "tokens", limit: 50_000 },
      },
    });
    expect(parseGoal("Port the parser to TypeScript budget $1.50")).toEqual({
      ok: true,
      spec: {
        objective: "Port the parser to TypeScript",
        budget: { kind: "cost", limit: 1.5 },
      },
    });
    expect(parseGoal("tidy the README")).toEqual({
      ok: true,
      spec: { objective: "tidy the README", budget: DEFAULT_GOAL_BUDGET },
    });
  });

  it("splits at the last keyword, so the objective may use the words itself", () => {
    const r = parseGoal("wait until the build is green, then tag it until a tag v1 exists");
    expect(r).toMatchObject({
      ok: true,
      spec: {
        objective: "wait until the build is green, then tag it",
        until: "a tag v1 exists",
      },
    });
    expect(parseGoal("Until Done budget 2M")).toMatchObject({
      ok: true,
      spec: {
        objective: "Until Done",
        budget: { kind: "tokens", limit: 2_000_000 },
      },
    });
  });

  it("budgets in the forms people write them", () => {
    expect(parseBudget("200k tokens")).toEqual({
      kind: "tokens",
      limit: 200_000,
    });
    expect(parseBudget("1.5M")).toEqual({ kind: "tokens", limit: 1_500_000 });
    expect(parseBudget("1200 token")).toEqual({ kind: "tokens", limit: 1_200 });
    expect(parseBudget("$2")).toEqual({ kind: "cost", limit: 2 });
    expect(parseBudget("0.5 USD")).toEqual({ kind: "cost", limit: 0.5 });
    for (const bad of ["", "lots", "$0", "0 tokens", "-5 tokens", "2 hours"]) expect(parseBudget(bad)).toBeUndefined();
  });

  it("explains what is wrong", () => {
    expect(parseGoal("")).toMatchObject({
      ok: false,
      error: expect.stringContaining("Say what the goal is"),
    });
    expect(parseGoal("budget $2")).toMatchObject({
      ok: false,
      error: expect.stringContaining("Say what the goal is"),
    });
    expect(parseGoal("ship it budget lots")).toMatchObject({
      ok: false,
      error: expect.stringContaining("“lots”"),
    });
    expect(parseGoal("ship it until ")).toMatchObject({
      ok: false,
      error: expect.stringContaining("Say when to stop"),
    });
    expect(parseGoal(`${"x".repeat(2_001)}`)).toMatchObject({
      ok: false,
      error: expect.stringContaining("too long"),
    });
  });

  it("usage counts every token since the goal was set, cached input included", () => {
    const goal = {
      budget: { kind: "tokens", limit: 1_000 },
      start: { tokens: 100, cost: 0.5 },
    } as const;
    const used = goalUsage(
      {
        tokens: {
          input: 300,
          output: 100,
          reasoning: 50,
          cache: { read: 400, write: 50 },
        },
        cost: 0.75,
      },
      goal as unknown as Goal,
    );
    expect(used).toEqual({ tokens: 800, cost: 0.25, fraction: 0.8 });
  });

  it("a stored goal that does not validate is dropped alone; the session still loads", () => {
    const session = {
      id: "ses_1",
      title: "t",
      directory: "/workspace",
      version: "1",
      time: { created: 1, updated: 1 },
      tokens: {
        input: 0,
        output: 0,
        reasoning: 0,
        cache: { read: 0, write: 0 },
      },
      cost: 0,
    };
    const r = Session.safeParse({
      ...session,
      goal: { objective: "", budget: { kind: "tokens", limit: -1 } },
    });
    expect(r.success && r.data.goal).toBeUndefined();
    expect(r.success && r.data.title).toBe("t");
  });
});

describe("a goal that makes no progress", () => {
  let n = 0;
  const id = () => `msg_${String(n++).padStart(6, "0")}`;
  const user = () => ({ info: { id: id(), role: "user" }, parts: [] }) as unknown as MessageWithParts;
  const answer = (tool: boolean) => ({ info: { id: id(), role: "assistant" }, parts: tool ? [{ type: "tool" }] : [{ type: "text" }] }) as unknown as MessageWithParts;
  const goalAt = (messageID: string) => ({ messageID }) as Goal;

  it("stalls after two turns in a row answered without a tool call, counted from the goal's start", () => {
    const before = [user(), answer(false), answer(false)];
    const start = user();
    const talk1 = [answer(false)];
    const cont = user();
    const talk2 = [answer(false)];
    const goal = goalAt(start.info.id);
    expect(goalStalled([...before, start, ...talk1], goal)).toBe(false);
    expect(goalStalled([...before, start, ...talk1, cont, ...talk2], goal)).toBe(true);
    // A tool call in either turn (in any of its steps) is work.
    expect(goalStalled([...before, start, answer(true), answer(false), cont, ...talk2], goal)).toBe(false);
    const cont2 = user();
    expect(goalStalled([...before, start, answer(true), cont, ...talk2, cont2, answer(false)], goal)).toBe(true);
    // A summary in between (its request and its answer, no tool) is not a turn of the model's.
    const request = { info: { id: id(), role: "user" }, parts: [{ type: "compaction", auto: true }] } as unknown as MessageWithParts;
    const summary = { info: { id: id(), role: "assistant", summary: true }, parts: [{ type: "text" }] } as unknown as MessageWithParts;
    const cont3 = user();
    expect(goalStalled([start, answer(true), request, summary, cont3, answer(false)], goal)).toBe(false);
    // A turn not answered yet does not count as talk.
    expect(goalStalled([start, ...talk1, user()], goal)).toBe(false);
  });
});
