/**
 * Two tabs sending to one session at the same instant: with the session's
 * write lock, the second message's place is computed after the first is
 * written, so both are on the shown branch, in order, and reach the model.
 * Without the lock (the control) one of them forks off as a hidden branch.
 */
import { describe, expect, it } from "vitest";
import { Bus } from "../bus";
import { PermissionBroker } from "../permission/broker";
import { DEFAULT_RULES } from "../permission/evaluate";
import { systemClock } from "../ports/clock";
import { defaultSettings, modelConfig, type Settings } from "../settings";
import { FakeLLM, textTurn } from "../../testing/fake-llm";
import { MemoryStore } from "../../testing/memory-store";
import { activePath } from "../conversation/branches";
import type { Locks } from "../ports/locks";
import { SessionService } from "./loop";

/** Web Locks stand-in shared by the "tabs": one queue per lock name. */
function sharedLocks(withWrite: boolean): Locks {
  const tails = new Map<string, Promise<unknown>>();
  const held = new Set<string>();
  const request = <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const prev = tails.get(name) ?? Promise.resolve();
    const run = prev.then(async () => {
      held.add(name);
      try {
        return await fn();
      } finally {
        held.delete(name);
      }
    });
    tails.set(name, run.catch(() => undefined));
    return run;
  };
  return {
    run: (id, fn, onBlocked) => {
      if (held.has(`run-${id}`)) onBlocked();
      return request(`run-${id}`, fn);
    },
    held: async (id) => held.has(`run-${id}`),
    ...(withWrite ? { write: <T>(id: string, fn: () => Promise<T>) => request(`write-${id}`, fn) } : {}),
  };
}

function tab(store: MemoryStore, llm: FakeLLM, locks: Locks): SessionService {
  const settings: Settings = { ...defaultSettings(), provider: "openai-compatible", modelID: "gpt-4o-mini" };
  return new SessionService({
    store,
    llm,
    clock: systemClock,
    bus: new Bus(),
    permissions: new PermissionBroker(() => [DEFAULT_RULES]),
    settings: () => settings,
    model: () => modelConfig(settings),
    tools: () => [],
    locks,
    version: "test",
  });
}

async function sendAtOnce(withWrite: boolean) {
  const store = new MemoryStore();
  const llm = new FakeLLM([textTurn("first answer"), textTurn("second answer"), textTurn("third")]);
  const locks = sharedLocks(withWrite);
  const a = tab(store, llm, locks);
  const b = tab(store, llm, locks);
  const s = await a.createSession();
  await Promise.all([a.prompt(s.id, { text: "from tab A" }), b.prompt(s.id, { text: "from tab B" })]);
  await Promise.all([a.ensureRunning(s.id), b.ensureRunning(s.id)]);
  const session = await store.getSession(s.id);
  const path = activePath(await store.messages(s.id), session?.branches);
  const shownUsers = path.filter((m) => m.info.role === "user").map((m) => (m.parts[0]?.type === "text" ? m.parts[0].text : ""));
  const sent = llm.requests.map((r) => JSON.stringify(r.messages));
  return { shownUsers, sent };
}

describe("prompt writes across tabs", () => {
  it("two simultaneous sends queue on one branch and both reach the model", async () => {
    const { shownUsers, sent } = await sendAtOnce(true);
    expect(shownUsers).toEqual(["from tab A", "from tab B"]);
    expect(sent.some((m) => m.includes("from tab A") && m.includes("from tab B"))).toBe(true);
  });

  it("control: without the write lock one message forks off the shown branch", async () => {
    const { shownUsers } = await sendAtOnce(false);
    expect(shownUsers).toHaveLength(1);
  });
});
