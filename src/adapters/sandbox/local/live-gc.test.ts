/**
 * Storage of a live session: after a revert is committed by the next prompt,
 * the reverted turn's saved tool output leaves the workspace, and its snapshot
 * trees and blobs are collected (nothing names them), while everything the
 * kept turns need stays readable. Real loop, real just-bash, both workspace
 * stores (memory and IndexedDB through fake-indexeddb).
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { conversationView } from "../../../core/conversation/view";
import type { MessageWithParts } from "../../../core/schema";
import { revertSession } from "../../../core/session/revert";
import { referencedSnapshots } from "../../../core/snapshot/gc";
import { writeUserFile } from "../../../core/snapshot/user-writes";
import { workspaceTools } from "../../../core/tools/index";
import { FakeLLM, textTurn, toolTurn } from "../../../testing/fake-llm";
import { makeTestService } from "../../../testing/session-service";
import { DexieWorkspaceStore } from "./dexie-workspace-store";
import { createLocalSandboxForTests } from "./testing";
import { collectGarbage, workspaceUsage } from "./workspace-ops";
import { MemoryWorkspaceStore, type WorkspaceStore } from "./workspace-store";

let n = 0;
const stores: Array<[string, () => WorkspaceStore]> = [
  ["memory", () => new MemoryWorkspaceStore()],
  ["IndexedDB", () => new DexieWorkspaceStore(`live-gc-${n++}`)],
];

const bash = (command: string) => toolTurn([{ tool: "bash", input: { command, description: "run" } }]);
const HOUR = 3_600_000;

/** Where each step left the files (step-finish snapshots), in order. */
const stepEnds = (msgs: MessageWithParts[]) => msgs.flatMap((m) => m.parts.flatMap((p) => (p.type === "step-finish" && p.snapshot ? [p.snapshot] : [])));
const savedPaths = (msgs: MessageWithParts[]) =>
  msgs.flatMap((m) => m.parts.flatMap((p) => (p.type === "tool" && p.state.status === "completed" && typeof p.state.metadata.outputPath === "string" ? [p.state.metadata.outputPath] : [])));

describe.each(stores)("storage a live session no longer needs (%s)", (_name, makeStore) => {
  it("revert + a new turn: the reverted turn's saved output, trees and blobs go; the kept turn's stay", async () => {
    const workspaceStore = makeStore();
    const sandbox = await createLocalSandboxForTests({ store: workspaceStore, files: { "a.txt": "original\n" } });
    const llm = new FakeLLM([
      bash("printf 'one\\n' > a.txt"),
      textTurn("done one"),
      // A long output is truncated and saved in the workspace; the new file only this turn wrote.
      bash("printf 'two\\n' > a.txt && seq 1 6000 > big.txt && seq 1 5000"),
      textTurn("done two"),
      textTurn("done three"),
    ]);
    const dropped: string[] = [];
    const { store, service } = makeTestService({ llm, tools: workspaceTools, sandbox, historyDropped: (id) => dropped.push(id) });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    const two = await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);

    const before = await store.messages(s.id);
    const [afterOne, afterTwo] = stepEnds(before);
    const [saved] = savedPaths(before);
    if (!afterOne || !afterTwo || !saved) throw new Error("fixture: both turns snapshot, the second saves its output");
    expect(await sandbox.fs.exists(saved)).toBe(true);

    // Revert "two", then the next prompt commits it: the turn's messages are deleted.
    await revertSession(store, sandbox, s.id, two.id);
    await service.prompt(s.id, { text: "three" });
    await service.ensureRunning(s.id);
    expect(dropped).toEqual([s.id]);
    expect(await sandbox.fs.exists(saved)).toBe(false);

    const session = await store.getSession(s.id);
    const live = referencedSnapshots(session, await store.messages(s.id));
    expect(live.has(afterOne)).toBe(true);
    expect(live.has(afterTwo)).toBe(false);
    const r = await collectGarbage(workspaceStore, live, { now: Date.now() + HOUR });
    expect(r.trees).toBeGreaterThanOrEqual(1);
    // big.txt (28,893 bytes) and the saved output (23,893 bytes) at least.
    expect(r.bytes).toBeGreaterThanOrEqual(28_893 + 23_893);
    expect(await workspaceStore.getTree(afterTwo)).toBeUndefined();
    expect(new TextDecoder().decode(await sandbox.readAt(afterOne, "a.txt"))).toBe("one\n");
    // The shown history still restores its files; the session's storage counts no dropped history.
    const shown = conversationView(session, await store.messages(s.id)).shown;
    expect(shown.map((m) => m.info.role)).toEqual(["user", "assistant", "assistant", "user", "assistant"]);
    expect((await workspaceUsage(workspaceStore, "test", live)).history).toBeLessThan(1_000);
  });

  it("a branch left by edit-and-resend keeps its files through a collection (an upload after its last step too): switching back restores them", async () => {
    const workspaceStore = makeStore();
    const sandbox = await createLocalSandboxForTests({ store: workspaceStore, files: { "a.txt": "original\n" } });
    const llm = new FakeLLM([bash("printf 'branch A\\n' > a.txt"), textTurn("A"), bash("printf 'branch B\\n' > a.txt"), textTurn("B")]);
    const { store, service } = makeTestService({ llm, tools: workspaceTools, sandbox });
    const s = await service.createSession();
    const first = await service.prompt(s.id, { text: "do A" });
    await service.ensureRunning(s.id);
    // Only the marker written when the branch is left names the files with this upload.
    await writeUserFile(sandbox, "notes.txt", "my notes\n");
    const edited = await service.prompt(s.id, { text: "do B instead", editOf: first.id });
    await service.ensureRunning(s.id);
    expect(await sandbox.fs.readText("/workspace/a.txt")).toBe("branch B\n");
    // Long after (no grace): only what the session names survives.
    await collectGarbage(workspaceStore, referencedSnapshots(await store.getSession(s.id), await store.messages(s.id)), { now: Date.now() + HOUR });
    await service.switchBranch(s.id, edited.id, -1);
    expect(await sandbox.fs.readText("/workspace/a.txt")).toBe("branch A\n");
    expect(await sandbox.fs.readText("/workspace/notes.txt")).toBe("my notes\n");
    await service.switchBranch(s.id, first.id, 1);
    expect(await sandbox.fs.readText("/workspace/a.txt")).toBe("branch B\n");
  });

  it("a kept message that names the same saved output keeps it (a fork's copy, an import)", async () => {
    const { dropSavedOutputs } = await import("../../../core/session/collect");
    const sandbox = await createLocalSandboxForTests({ store: makeStore() });
    const path = `${sandbox.root}/.tabcode/tool-output/tool_1.txt`;
    await sandbox.fs.writeFile(path, "full output");
    await sandbox.fs.writeFile(`${sandbox.root}/notes.txt`, "not an output");
    const named = (outputPath: string): MessageWithParts => ({
      info: { id: "msg_1", sessionID: "s", role: "assistant", parentID: "u", time: { created: 1 }, modelID: "m", providerID: "openai", agent: "build", cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } },
      parts: [{ id: "prt_1", sessionID: "s", messageID: "msg_1", type: "tool", callID: "c", tool: "bash", state: { status: "completed", input: {}, output: "…", title: "bash", metadata: { outputPath }, time: { start: 1, end: 2 } } }],
    });
    expect(await dropSavedOutputs(sandbox, [named(path)], [named(path)])).toEqual([]);
    expect(await sandbox.fs.exists(path)).toBe(true);
    // Only files in the output folder are ever removed.
    expect(await dropSavedOutputs(sandbox, [named(`${sandbox.root}/notes.txt`)], [])).toEqual([]);
    expect(await sandbox.fs.exists(`${sandbox.root}/notes.txt`)).toBe(true);
    expect(await dropSavedOutputs(sandbox, [named(path)], [])).toEqual([path]);
    expect(await sandbox.fs.exists(path)).toBe(false);
  });
});
