import { describe, expect, it } from "vitest";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { MemoryStore } from "../../testing/memory-store";
import { repairSession } from "./repair";
import { revertSession } from "./revert";

const SES = "ses_0000000000000000000000001";
const USER = "msg_0000000000010000000000000";
const ASSISTANT = "msg_0000000000020000000000000";

async function interruptedStep() {
  const store = new MemoryStore();
  const sandbox = await createLocalSandboxForTests({ files: { "app.txt": "original\n" } });
  await store.createSession({ id: SES, title: "t", directory: "/workspace", version: "0.1.0", time: { created: 1, updated: 1 }, cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } });
  const before = await sandbox.snapshot();
  const base = { sessionID: SES };
  await store.upsertMessage({ ...base, id: USER, role: "user", time: { created: 1 }, agent: "build", model: { providerID: "x", modelID: "y" } });
  await store.upsertMessage({
    ...base,
    id: ASSISTANT,
    role: "assistant",
    parentID: USER,
    time: { created: 2 },
    modelID: "y",
    providerID: "x",
    agent: "build",
    cost: 0,
    tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
  });
  await store.upsertPart({ ...base, id: "prt_0000000000030000000000000", messageID: ASSISTANT, type: "step-start", snapshot: before });
  // The step changed files, then the tab closed before the step's patch was written.
  await sandbox.fs.writeFile("/workspace/app.txt", "half done\n");
  await sandbox.fs.writeFile("/workspace/new.txt", "created mid-step\n");
  return { store, sandbox, before };
}

describe("repair of a step cut short by a closed tab", () => {
  it("writes the step's patch from its starting snapshot, so the turn can be reverted", async () => {
    const { store, sandbox, before } = await interruptedStep();
    expect(await repairSession(store, SES, 10, async () => sandbox)).toBe(1);
    const parts = (await store.messages(SES)).find((m) => m.info.id === ASSISTANT)?.parts ?? [];
    const patch = parts.find((p) => p.type === "patch");
    expect(patch).toMatchObject({ type: "patch", hash: before, files: ["app.txt", "new.txt"] });

    await revertSession(store, sandbox, SES, USER);
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("original\n");
    expect(await sandbox.fs.exists("/workspace/new.txt")).toBe(false);
  });

  it("writes nothing for a session deleted after its messages were read (repair runs when the page is idle)", async () => {
    const { store } = await interruptedStep();
    const read = store.messages.bind(store);
    // The session is deleted right after repair has read it.
    store.messages = async (id: string) => {
      const msgs = await read(id);
      await store.deleteSession(id);
      return msgs;
    };
    expect(await repairSession(store, SES, 10)).toBe(0);
    store.messages = read;
    expect(await store.messages(SES)).toEqual([]);
  });

  it("writes nothing once a run has started on the session after its messages were read (that run's answer is unfinished too)", async () => {
    const { store } = await interruptedStep();
    const read = store.messages.bind(store);
    let started = false;
    store.messages = async (id: string) => {
      const msgs = await read(id);
      started = true;
      return msgs;
    };
    expect(await repairSession(store, SES, 10, undefined, async () => started)).toBe(0);
    store.messages = read;
    const answer = (await store.messages(SES)).find((m) => m.info.id === ASSISTANT)?.info;
    expect(answer?.role === "assistant" && answer.time.completed).toBeFalsy();
  });

  it("still repairs the messages when no sandbox is available", async () => {
    const { store } = await interruptedStep();
    expect(await repairSession(store, SES, 10, async () => undefined)).toBe(1);
    const parts = (await store.messages(SES)).find((m) => m.info.id === ASSISTANT)?.parts ?? [];
    expect(parts.some((p) => p.type === "patch")).toBe(false);
  });
});
