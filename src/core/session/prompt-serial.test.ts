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
function sharedLocks(withWrite: boolean, log: string[] = [], withReserve = true): Locks {
  const tails = new Map<string, Promise<unknown>>();
  const held = new Set<string>();
  /** Requests not yet finished, by lock name (a lock is taken while any is). */
  const open = new Map<string, number>();
  const request = <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const prev = tails.get(name) ?? Promise.resolve();
    open.set(name, (open.get(name) ?? 0) + 1);
    const run = prev.then(async () => {
      held.add(name);
      try {
        return await fn();
      } finally {
        held.delete(name);
        open.set(name, (open.get(name) ?? 1) - 1);
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
    // As the Web Locks adapter (when the fake has it): asked for at once, held until the run's body is handed over (or the reservation is cancelled).
    reserve: withReserve ? (id) => {
      log.push(`reserve ${id}`);
      let hand: (fn: (() => Promise<unknown>) | undefined) => void = () => undefined;
      const body = new Promise<(() => Promise<unknown>) | undefined>((r) => {
        hand = r;
      });
      const taken = (open.get(`run-${id}`) ?? 0) > 0;
      const granted = taken ? undefined : request(`run-${id}`, async () => (await body)?.());
      return {
        run: <T>(fn: () => Promise<T>, onBlocked: () => void): Promise<T> => {
          log.push(`run ${id}`);
          if (!granted) {
            hand(undefined);
            onBlocked();
            return request(`run-${id}`, fn);
          }
          hand(fn);
          return granted as Promise<T>;
        },
        cancel: () => {
          log.push(`cancel ${id}`);
          hand(undefined);
        },
      };
    } : undefined,
    held: async (id) => held.has(`run-${id}`),
    ...(withWrite ? { write: <T>(id: string, fn: () => Promise<T>) => request(`write-${id}`, fn) } : {}),
  };
}

function tab(store: MemoryStore, llm: FakeLLM, locks: Locks, bus = new Bus()): SessionService {
  const settings: Settings = { ...defaultSettings(), provider: "openai-compatible", modelID: "gpt-4o-mini" };
  return new SessionService({
    store,
    llm,
    clock: systemClock,
    bus,
    permissions: new PermissionBroker(() => [DEFAULT_RULES]),
    settings: () => settings,
    model: () => modelConfig(settings),
    tools: () => [],
    locks,
    version: "test",
  });
}

async function sendAtOnce(withWrite: boolean, withReserve = true) {
  const store = new MemoryStore();
  const llm = new FakeLLM([textTurn("first answer"), textTurn("second answer"), textTurn("third")]);
  const locks = sharedLocks(withWrite, [], withReserve);
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

  it("the same when each run asks for its lock only when it starts (no early reservation)", async () => {
    const { shownUsers, sent } = await sendAtOnce(true, false);
    expect(shownUsers).toEqual(["from tab A", "from tab B"]);
    expect(sent.some((m) => m.includes("from tab A") && m.includes("from tab B"))).toBe(true);
  });

  it("control: without the write lock one message forks off the shown branch", async () => {
    const { shownUsers } = await sendAtOnce(false);
    expect(shownUsers).toHaveLength(1);
  });
});

describe("a prompt's run lock is asked for while the prompt is written", () => {
  /** A tab whose store logs when a prompt is stored (and can be told to fail it). */
  function logged(opts: { failWrites?: number } = {}) {
    const log: string[] = [];
    const store = new MemoryStore();
    let failures = opts.failWrites ?? 0;
    const add = store.addMessage.bind(store);
    store.addMessage = async (message, parts, session) => {
      if (message.role === "user" && failures > 0) {
        failures--;
        log.push("write failed");
        throw new Error("QuotaExceededError");
      }
      const out = await add(message, parts, session);
      if (message.role === "user") log.push("stored");
      return out;
    };
    const llm = new FakeLLM([textTurn("one"), textTurn("two"), textTurn("three")]);
    const bus = new Bus();
    const notices: string[] = [];
    bus.subscribe((e) => {
      if (e.type === "session.notice") notices.push(e.message);
    });
    const locks = sharedLocks(true, log);
    return { log, store, llm, locks, notices, service: tab(store, llm, locks, bus) };
  }

  it("asks before the prompt is stored and runs on that lock once it is", async () => {
    const t = logged();
    const s = await t.service.createSession();
    await t.service.prompt(s.id, { text: "hello" });
    await t.service.ensureRunning(s.id);
    expect(t.log).toEqual([`reserve ${s.id}`, "stored", `run ${s.id}`]);
    expect(t.llm.requests).toHaveLength(1);
    expect(await t.locks.held(s.id)).toBe(false);
    expect(t.notices).toEqual([]);
  });

  it("a prompt that cannot be written gives the lock back and starts no run; the next prompt is answered", async () => {
    const t = logged({ failWrites: 1 });
    const s = await t.service.createSession();
    await expect(t.service.prompt(s.id, { text: "lost?" })).rejects.toThrow("QuotaExceededError");
    expect(t.log).toEqual([`reserve ${s.id}`, "write failed", `cancel ${s.id}`]);
    expect(t.service.isBusy(s.id)).toBe(false);
    expect(t.llm.requests).toHaveLength(0);
    await t.service.prompt(s.id, { text: "again" });
    await t.service.ensureRunning(s.id);
    expect(t.llm.requests).toHaveLength(1);
    expect(t.notices).toEqual([]);
  });

  it("two prompts sent at once in one tab: one run answers both, and no 'running in another tab' notice", async () => {
    const t = logged();
    const s = await t.service.createSession();
    await Promise.all([t.service.prompt(s.id, { text: "first" }), t.service.prompt(s.id, { text: "second" })]);
    await t.service.ensureRunning(s.id);
    expect(t.log.filter((l) => l.startsWith("reserve"))).toHaveLength(1);
    expect(t.notices).toEqual([]);
    const last = JSON.stringify(t.llm.requests.at(-1)?.messages);
    expect(last).toContain("first");
    expect(last).toContain("second");
  });

  it("an edit-and-resend asks for no early lock (it must find the session idle everywhere first)", async () => {
    const t = logged();
    const s = await t.service.createSession();
    const first = await t.service.prompt(s.id, { text: "original" });
    await t.service.ensureRunning(s.id);
    t.log.length = 0;
    await t.service.prompt(s.id, { text: "edited", editOf: first.id });
    await t.service.ensureRunning(s.id);
    expect(t.log).toEqual(["stored"]);
    expect(t.llm.requests).toHaveLength(2);
  });
});
