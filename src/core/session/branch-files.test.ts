import { describe, expect, it } from "vitest";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import { conversationView } from "../conversation/view";
import { workspaceTools } from "../tools/index";
import { revertSession } from "./revert";

const write = (content: string) => toolTurn([{ tool: "bash", input: { command: `printf '${content}' > app.txt`, description: "change app.txt" } }]);

async function setup(llm: FakeLLM) {
  const sandbox = await createLocalSandboxForTests({ files: { "app.txt": "original\n" } });
  const { store, service } = makeTestService({ llm, tools: workspaceTools, sandbox });
  const read = () => sandbox.fs.readText("/workspace/app.txt");
  return { store, sandbox, service, read };
}

describe("files follow branches", () => {
  it("edit-and-resend starts from the files as they were before the edited message; switching back and forth restores each branch's files", async () => {
    // The edited branch notes which files it started from, then makes its own change.
    const noteAndWrite = toolTurn([{ tool: "bash", input: { command: "cp app.txt seen.txt && echo 'second B' > app.txt", description: "note and change" } }]);
    const llm = new FakeLLM([write("first A\n"), textTurn("ok"), write("second A\n"), textTurn("ok"), noteAndWrite, textTurn("ok")]);
    const { store, sandbox, service, read } = await setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    const second = await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    expect(await read()).toBe("second A\n");

    // Edit "two": the new branch sees the files as "one" left them, then makes its own change.
    const edited = await service.prompt(s.id, { text: "two, edited", editOf: second.id });
    await service.ensureRunning(s.id);
    expect(await sandbox.fs.readText("/workspace/seen.txt")).toBe("first A\n");
    expect(await read()).toBe("second B\n");

    // Back to the first alternative: its files, as it left them.
    await service.switchBranch(s.id, edited.id, -1);
    expect(await read()).toBe("second A\n");
    expect(await sandbox.fs.exists("/workspace/seen.txt")).toBe(false);
    const session = await store.getSession(s.id);
    expect(conversationView(session, await store.messages(s.id)).shown.some((m) => m.info.id === second.id)).toBe(true);
    // And forward again.
    await service.switchBranch(s.id, second.id, 1);
    expect(await read()).toBe("second B\n");
  });

  it("showBranchOf shows the branch a message (or its answer) is on, with its files, and refuses during a revert", async () => {
    const llm = new FakeLLM([write("first A\n"), textTurn("ok"), write("second A\n"), textTurn("answer on A"), write("second B\n"), textTurn("ok"), write("third B\n"), textTurn("ok")]);
    const { store, sandbox, service, read } = await setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    const second = await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    await service.prompt(s.id, { text: "two, edited", editOf: second.id });
    await service.ensureRunning(s.id);
    const third = await service.prompt(s.id, { text: "three" });
    await service.ensureRunning(s.id);
    expect(await read()).toBe("third B\n");
    const answerOnA = (await store.messages(s.id)).find((m) => m.info.role === "assistant" && m.parts.some((p) => p.type === "text" && p.text === "answer on A"));
    if (!answerOnA) throw new Error("fixture");
    await service.showBranchOf(s.id, answerOnA.info.id);
    const shown = () => store.getSession(s.id).then(async (x) => conversationView(x, await store.messages(s.id)).shown.map((m) => m.info.id));
    expect(await shown()).toContain(answerOnA.info.id);
    expect(await read()).toBe("second A\n");
    // And back to the deeper branch by its last message.
    await service.showBranchOf(s.id, third.id);
    expect(await shown()).toContain(third.id);
    expect(await read()).toBe("third B\n");
    await revertSession(store, sandbox, s.id, third.id);
    await expect(service.showBranchOf(s.id, answerOnA.info.id)).rejects.toThrow("Unrevert first");
  });

  it("reverting a turn on the new branch leaves none of the old branch's changes", async () => {
    const llm = new FakeLLM([write("first A\n"), textTurn("ok"), write("second A\n"), textTurn("ok"), write("second B\n"), textTurn("ok")]);
    const { store, sandbox, service, read } = await setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    const second = await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    const edited = await service.prompt(s.id, { text: "two, edited", editOf: second.id });
    await service.ensureRunning(s.id);
    await revertSession(store, sandbox, s.id, edited.id);
    expect(await read()).toBe("first A\n");
  });
});
