import { describe, expect, it } from "vitest";
import { defaultSettings, type Settings } from "../core/settings";
import { encodingForModel } from "../core/tokens/counter";
import { firstScreenShown, holdIdleWorkDuring, warmUp, whenIdle } from "./warm-up";

describe("warm-up after start-up", () => {
  it("waits for idle, then loads the configured provider's adapter, the tools and the model's tokenizer", async () => {
    const log: string[] = [];
    let idleTask: (() => void) | undefined;
    const settings = { ...defaultSettings(), provider: "openai-compatible" as const, modelID: "gpt-4o-mini" };
    const { done } = warmUp({
      settings: () => settings,
      llm: { preload: async (c) => void log.push(`llm:${c.provider}`) },
      wiring: { preload: async () => log.push("tools") },
      counter: { encodingFor: encodingForModel, count: async () => [], warm: (e) => log.push(`tokenizer:${e}`) },
      idle: (task) => {
        idleTask = task;
      },
    });
    expect(log).toEqual([]);
    idleTask?.();
    await done;
    expect(log.sort()).toEqual(["llm:openai-compatible", "tokenizer:o200k_base", "tools"]);
  });

  it("a failed load does not reject (the first send tries again and reports it)", async () => {
    const settings = defaultSettings();
    await expect(
      warmUp({
        settings: () => settings,
        llm: { preload: () => Promise.reject(new Error("offline")) },
        wiring: { preload: () => Promise.reject(new Error("offline")) },
        counter: { encodingFor: encodingForModel, count: async () => [] },
        idle: (task) => task(),
      }).done,
    ).resolves.toBeUndefined();
  });

  it("starting at once (the user types) and then when idle loads everything only once", async () => {
    const log: string[] = [];
    let idleTask: (() => void) | undefined;
    const settings = { ...defaultSettings(), provider: "openai-compatible" as const, modelID: "gpt-4o-mini" };
    const { done, now } = warmUp({
      settings: () => settings,
      llm: { preload: async (c) => void log.push(`llm:${c.provider}`) },
      wiring: { preload: async () => log.push("tools") },
      sessions: { load: async () => log.push("sessions") },
      counter: { encodingFor: encodingForModel, count: async () => [] },
      idle: (task) => {
        idleTask = task;
      },
    });
    await now();
    expect(log.sort()).toEqual(["llm:openai-compatible", "sessions", "tools"]);
    idleTask?.();
    await done;
    await now();
    expect(log).toHaveLength(3);
  });

  it("after the provider or model changes (the demo, then the user's own key), the next call loads the new one", async () => {
    const log: string[] = [];
    let settings: Settings = { ...defaultSettings(), provider: "demo", modelID: "demo" };
    const { now } = warmUp({
      settings: () => settings,
      llm: { preload: async (c) => void log.push(`llm:${c.provider}:${c.modelID}`) },
      wiring: { preload: async () => undefined },
      counter: { encodingFor: encodingForModel, count: async () => [] },
      idle: () => undefined,
    });
    await now();
    await now();
    settings = { ...settings, provider: "openai-compatible", modelID: "gpt-4o-mini" };
    await now();
    await now();
    expect(log).toEqual(["llm:demo:demo", "llm:openai-compatible:gpt-4o-mini"]);
  });

  it("idle work waits until the first screen says it is shown (an idle page waiting for IndexedDB is not idle enough)", async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let ran = false;
    whenIdle(() => {
      ran = true;
    });
    await sleep(400);
    expect(ran).toBe(false);
    firstScreenShown();
    await sleep(400);
    expect(ran).toBe(true);
  });

  it("idle work waits while a send is being prepared, and runs once its answer has started", async () => {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    firstScreenShown();
    let preparing = true;
    let quiet: () => void = () => undefined;
    holdIdleWorkDuring({
      get preparing() {
        return preparing;
      },
      whenQuiet: () =>
        new Promise<void>((resolve) => {
          quiet = resolve;
        }),
    });
    try {
      let ran = 0;
      whenIdle(() => {
        ran++;
      });
      await sleep(400);
      expect(ran).toBe(0);
      preparing = false;
      quiet();
      await sleep(400);
      expect(ran).toBe(1);
      // With no send under way it runs at the first idle moment.
      whenIdle(() => {
        ran++;
      });
      await sleep(400);
      expect(ran).toBe(2);
    } finally {
      holdIdleWorkDuring({ preparing: false, whenQuiet: async () => undefined });
    }
  });
});
