import { describe, expect, it } from "vitest";
import { systemClock } from "../core/ports/clock";
import type { Session } from "../core/schema";
import { defaultSettings, modelConfig } from "../core/settings";
import { PromptWiring } from "./prompt-wiring";

const session = (goal?: Session["goal"]): Session => ({
  id: "ses_1",
  title: "t",
  directory: "/workspace",
  version: "test",
  time: { created: 1, updated: 1 },
  tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
  cost: 0,
  ...(goal ? { goal } : {}),
});

const goal = (state: NonNullable<Session["goal"]>["state"]): NonNullable<Session["goal"]> => ({
  objective: "ship it",
  budget: { kind: "tokens", limit: 1000 },
  state,
  start: { tokens: 0, cost: 0 },
  messageID: "msg_1",
  continues: 0,
  time: { created: 1 },
});

describe("PromptWiring.tools", () => {
  it("offers goal_done only while the session has an active /goal", async () => {
    const wiring = new PromptWiring(systemClock, defaultSettings, () => "build");
    const names = async (s: Session) => (await wiring.tools("build", s)).map((t) => t.id);
    expect(await names(session())).not.toContain("goal_done");
    expect(await names(session(goal("active")))).toContain("goal_done");
    expect(await names(session(goal("met")))).not.toContain("goal_done");
    expect(await names(session(goal("active")))).toContain("read");
  });
});

describe("PromptWiring.system", () => {
  const input = () => ({ session: session(), model: modelConfig(defaultSettings()), sandbox: undefined, agent: "build", toolState: new Map<string, unknown>() });

  /** A wiring whose assembler loads are counted; `fails(n)` says whether load `n` (from 1) fails as offline. */
  function countedWiring(fails: (n: number) => boolean = () => false) {
    const wiring = new PromptWiring(systemClock, defaultSettings, () => "build");
    const real = wiring.assembler;
    const counted = { wiring, loads: 0 };
    wiring.assembler = () => {
      counted.loads++;
      return fails(counted.loads) ? Promise.reject(new Error("offline")) : real();
    };
    return counted;
  }

  it("loads what the system prompt is built with once, and keeps it: later requests do not load it again", async () => {
    const counted = countedWiring();
    const { wiring } = counted;
    const first = await wiring.system(input());
    const second = await wiring.system(input());
    expect(second).toEqual(first);
    expect(first.join("\n").length).toBeGreaterThan(0);
    expect(counted.loads).toBe(1);
  });

  it("a load that failed is tried again by the next request", async () => {
    const counted = countedWiring((n) => n === 1);
    const { wiring } = counted;
    await expect(wiring.system(input())).rejects.toThrow("offline");
    expect((await wiring.system(input())).length).toBeGreaterThan(0);
    expect(counted.loads).toBe(2);
  });
});
