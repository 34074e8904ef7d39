import { describe, expect, it } from "vitest";
import { personActsDuringStep } from "../../testing/during-step";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { writeUserFile } from "../snapshot/user-writes";
import { workspaceTools } from "../tools/index";
import { keepOwnChanges, revertSession, snapshotAfter, unrevertSession } from "./revert";
import { makeTestService } from "../../testing/session-service";

async function setup(llm: FakeLLM) {
  const sandbox = await createLocalSandboxForTests({ files: { "app.txt": "version one\n" } });
  const { store, service } = makeTestService({ llm, tools: workspaceTools, sandbox });
  return { store, sandbox, service };
}

/** One bash call and an answer per turn: what each of the two turns runs, and the prompt that asks for it. */
interface BashTurn {
  command: string;
  description: string;
  prompt: string;
  answer: string;
}

/**
 * A session of two turns run to their end. `importedFirst`: the first turn came from another browser (an
 * import): its patch names a workspace state this one never held.
 */
async function twoTurns(turns: [BashTurn, BashTurn], opts: { importedFirst?: boolean } = {}) {
  const llm = new FakeLLM(turns.flatMap((t) => [toolTurn([{ tool: "bash", input: { command: t.command, description: t.description } }]), textTurn(t.answer)]));
  const { store, sandbox, service } = await setup(llm);
  const s = await service.createSession();
  const first = await service.prompt(s.id, { text: turns[0].prompt });
  await service.ensureRunning(s.id);
  if (opts.importedFirst) await markImported(store, s.id);
  const second = await service.prompt(s.id, { text: turns[1].prompt });
  await service.ensureRunning(s.id);
  return { store, sandbox, service, s, first, second };
}

/** As after an import into another browser: the session's patches name a workspace state this one never held. */
async function markImported(store: Awaited<ReturnType<typeof setup>>["store"], sessionID: string): Promise<void> {
  for (const m of await store.messages(sessionID)) for (const p of m.parts) if (p.type === "patch") await store.upsertPart({ ...p, hash: "f".repeat(40) });
}

describe("revert and unrevert", () => {
  it("restores files changed by edit and by bash, hides the turn, and unrevert brings both back", async () => {
    const llm = new FakeLLM([
      toolTurn([{ tool: "read", input: { filePath: "/workspace/app.txt" } }]),
      toolTurn([{ tool: "edit", input: { filePath: "/workspace/app.txt", oldString: "version one", newString: "version two" } }]),
      toolTurn([{ tool: "bash", input: { command: "echo made by bash > new.txt", description: "create a file" } }]),
      textTurn("done"),
    ]);
    const { store, sandbox, service } = await setup(llm);
    const s = await service.createSession();
    const user = await service.prompt(s.id, { text: "change it" });
    await service.ensureRunning(s.id);
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("version two\n");
    expect(await sandbox.fs.readText("/workspace/new.txt")).toBe("made by bash\n");
    const msgs = await store.messages(s.id);
    const patched = msgs.flatMap((m) => m.parts).filter((p) => p.type === "patch");
    expect(patched.flatMap((p) => (p.type === "patch" ? p.files : [])).sort()).toEqual(["app.txt", "new.txt"]);

    // Reverting from an assistant message resolves to its user message: the whole turn.
    const assistant = msgs.find((m) => m.info.role === "assistant");
    const reverted = await revertSession(store, sandbox, s.id, assistant?.info.id ?? "");
    expect(reverted?.revert?.messageID).toBe(user.id);
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("version one\n");
    expect(await sandbox.fs.exists("/workspace/new.txt")).toBe(false);

    await unrevertSession(store, sandbox, s.id);
    expect((await store.getSession(s.id))?.revert).toBeUndefined();
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("version two\n");
    expect(await sandbox.fs.readText("/workspace/new.txt")).toBe("made by bash\n");
  });

  it("an imported session's earlier files are not here: the messages are reverted, the files left, and the revert says so", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "bash", input: { command: "echo later > app.txt", description: "change it" } }]), textTurn("done")]);
    const { store, sandbox, service } = await setup(llm);
    const s = await service.createSession();
    const user = await service.prompt(s.id, { text: "change it" });
    await service.ensureRunning(s.id);
    await markImported(store, s.id);
    const reverted = await revertSession(store, sandbox, s.id, user.id);
    expect(reverted?.revert).toEqual({ messageID: user.id, filesKept: true });
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("later\n");
    await unrevertSession(store, sandbox, s.id);
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("later\n");
  });

  it("a revert that reaches back into imported turns after one that restored files does not call them restored", async () => {
    // The first turn came from another browser.
    const { store, sandbox, s, first, second } = await twoTurns([
      { command: "echo imported > app.txt", description: "imported turn", prompt: "first", answer: "one" },
      { command: "echo local > app.txt", description: "local turn", prompt: "second", answer: "two" },
    ], { importedFirst: true });

    const once = await revertSession(store, sandbox, s.id, second.id);
    expect(once?.revert).toMatchObject({ messageID: second.id });
    expect(once?.revert?.filesKept).toBeUndefined();
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("imported\n");
    const twice = await revertSession(store, sandbox, s.id, first.id);
    // It wrote nothing: where the first revert left the files still holds (`after`), for what the user changes next.
    expect(twice?.revert).toEqual({ messageID: first.id, snapshot: once?.revert?.snapshot, after: once?.revert?.after, filesKept: true });
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("imported\n");
    // Unrevert brings back the files as they were before the first revert.
    await unrevertSession(store, sandbox, s.id);
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("local\n");
  });

  it("restores a binary file byte for byte", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]);
    const llm = new FakeLLM([
      toolTurn([{ tool: "bash", input: { command: "echo replaced > logo.png", description: "overwrite the logo" } }]),
      textTurn("done"),
    ]);
    const { store, sandbox, service } = await setup(llm);
    await sandbox.fs.writeFile("/workspace/logo.png", png);
    const s = await service.createSession();
    const user = await service.prompt(s.id, { text: "break the logo" });
    await service.ensureRunning(s.id);
    expect(await sandbox.fs.readText("/workspace/logo.png")).toBe("replaced\n");
    await revertSession(store, sandbox, s.id, user.id);
    expect([...(await sandbox.fs.readFile("/workspace/logo.png"))]).toEqual([...png]);
  });

  it("plan files (.tabcode/plans) are in the step's patch and follow revert and unrevert", async () => {
    const llm = new FakeLLM([
      toolTurn([{ tool: "bash", input: { command: "mkdir -p .tabcode/plans && echo step 2 > .tabcode/plans/plan.md", description: "update the plan" } }]),
      textTurn("done"),
    ]);
    const { store, sandbox, service } = await setup(llm);
    await sandbox.fs.writeFile("/workspace/.tabcode/plans/plan.md", "step 1\n");
    const s = await service.createSession();
    const user = await service.prompt(s.id, { text: "plan" });
    await service.ensureRunning(s.id);
    const patches = (await store.messages(s.id)).flatMap((m) => m.parts).flatMap((p) => (p.type === "patch" ? p.files : []));
    expect(patches).toEqual([".tabcode/plans/plan.md"]);
    await revertSession(store, sandbox, s.id, user.id);
    expect(await sandbox.fs.readText("/workspace/.tabcode/plans/plan.md")).toBe("step 1\n");
    await unrevertSession(store, sandbox, s.id);
    expect(await sandbox.fs.readText("/workspace/.tabcode/plans/plan.md")).toBe("step 2\n");
  });

  it("the next prompt commits a revert: hidden messages are deleted", async () => {
    const llm = new FakeLLM([textTurn("first"), textTurn("second")]);
    const { store, service, sandbox } = await setup(llm);
    const s = await service.createSession();
    const u = await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    await revertSession(store, sandbox, s.id, u.id);
    await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    const msgs = await store.messages(s.id);
    expect(msgs.map((m) => m.info.role)).toEqual(["user", "assistant"]);
    expect(msgs[0]?.parts.some((p) => p.type === "text" && p.text === "two")).toBe(true);
    expect((await store.getSession(s.id))?.revert).toBeUndefined();
  });

  it("a goal set by a reverted message ends when the revert is committed; one set before it stays", async () => {
    const llm = new FakeLLM([textTurn("first"), textTurn("second")]);
    const { store, service, sandbox } = await setup(llm);
    const s = await service.createSession();
    const u = await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    const goal = { objective: "ship it", budget: { kind: "tokens" as const, limit: 1000 }, state: "spent" as const, start: { tokens: 0, cost: 0 }, messageID: u.id, continues: 0, time: { created: 1 } };
    await store.updateSession(s.id, (x) => ({ ...x, goal }));
    await revertSession(store, sandbox, s.id, u.id);
    expect((await store.getSession(s.id))?.goal).toEqual(goal);
    await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    expect((await store.getSession(s.id))?.goal).toBeUndefined();
  });

  it("finds the workspace snapshot right after a message", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "bash", input: { command: "echo x > a.txt", description: "write a" } }]), textTurn("ok")]);
    const { store, service } = await setup(llm);
    const s = await service.createSession();
    const u = await service.prompt(s.id, { text: "go" });
    await service.ensureRunning(s.id);
    const msgs = await store.messages(s.id);
    const firstStep = msgs[1]?.parts.find((p) => p.type === "step-start");
    expect(snapshotAfter(msgs, u.id)).toBe(firstStep?.type === "step-start" ? firstStep.snapshot : "missing");
    expect(snapshotAfter(msgs, msgs.at(-1)?.info.id ?? "")).toBeUndefined();
  });
});

describe("uploads during a run", () => {
  it("are not part of the step's patch: reverting the turn keeps the user's upload", async () => {
    const upload = new Uint8Array([1, 2, 3, 0xff]);
    // The user drops a file into the workspace while the step runs.
    const { store, sandbox, s, user, patched } = await personActsDuringStep({ "app.txt": "version one\n" }, async (sb) => {
      await writeUserFile(sb, "upload.bin", upload);
    });
    expect(patched).toEqual(["model.txt"]);
    await revertSession(store, sandbox, s.id, user.id);
    expect(await sandbox.fs.exists("/workspace/model.txt")).toBe(false);
    expect([...(await sandbox.fs.readFile("/workspace/upload.bin"))]).toEqual([...upload]);
  });
});

describe("the user's own changes after a reverted turn", () => {
  async function twoTurns() {
    const llm = new FakeLLM([
      toolTurn([{ tool: "read", input: { filePath: "/workspace/app.txt" } }]),
      toolTurn([{ tool: "edit", input: { filePath: "/workspace/app.txt", oldString: "version one", newString: "version two" } }]),
      textTurn("one"),
      toolTurn([{ tool: "bash", input: { command: "echo by the model > notes.txt", description: "notes" } }]),
      textTurn("two"),
    ]);
    const { store, sandbox, service } = await setup(llm);
    const s = await service.createSession();
    const first = await service.prompt(s.id, { text: "first" });
    await service.ensureRunning(s.id);
    const second = await service.prompt(s.id, { text: "second" });
    await service.ensureRunning(s.id);
    return { store, sandbox, service, s, first, second };
  }

  it("are named when the revert undoes them, can be kept, and unrevert brings everything back", async () => {
    const { store, sandbox, s, second } = await twoTurns();
    // After the turn, the user edits the model's file; a file the turn never touched is theirs alone.
    await writeUserFile(sandbox, "notes.txt", "mine\n");
    await writeUserFile(sandbox, "other.txt", "untouched by the model\n");
    const reverted = await revertSession(store, sandbox, s.id, second.id);
    expect(reverted?.revert?.undone).toEqual(["notes.txt"]);
    expect(await sandbox.fs.exists("/workspace/notes.txt")).toBe(false);
    expect(await sandbox.fs.readText("/workspace/other.txt")).toBe("untouched by the model\n");

    const kept = await keepOwnChanges(store, sandbox, s.id);
    expect(kept?.revert).toMatchObject({ messageID: second.id, ownKept: ["notes.txt"] });
    expect(kept?.revert?.undone).toBeUndefined();
    expect(await sandbox.fs.readText("/workspace/notes.txt")).toBe("mine\n");
    // The rest of the revert stands.
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("version two\n");

    await unrevertSession(store, sandbox, s.id);
    expect(await sandbox.fs.readText("/workspace/notes.txt")).toBe("mine\n");
  });

  it("a revert with no later change names nothing, and a further revert does not take the first one's work for the user's", async () => {
    const { store, sandbox, s, first, second } = await twoTurns();
    const once = await revertSession(store, sandbox, s.id, second.id);
    expect(once?.revert?.undone).toBeUndefined();
    // notes.txt is gone now (the first revert): that is not a change of the user's to the second turn's file.
    const twice = await revertSession(store, sandbox, s.id, first.id);
    expect(twice?.revert?.undone).toBeUndefined();
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("version one\n");
  });

  it("a further revert still names a change the user made before the first one", async () => {
    const { store, sandbox, s, first, second } = await twoTurns();
    await writeUserFile(sandbox, "app.txt", "version two, and mine\n");
    const once = await revertSession(store, sandbox, s.id, second.id);
    // The second turn never touched app.txt: this revert leaves it.
    expect(once?.revert?.undone).toBeUndefined();
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("version two, and mine\n");
    const twice = await revertSession(store, sandbox, s.id, first.id);
    expect(twice?.revert?.undone).toEqual(["app.txt"]);
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("version one\n");
    await keepOwnChanges(store, sandbox, s.id);
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("version two, and mine\n");
  });

  it("a file the user deleted after the turn stays deleted when kept", async () => {
    const { store, sandbox, s, first } = await twoTurns();
    await sandbox.fs.rm("/workspace/app.txt");
    const reverted = await revertSession(store, sandbox, s.id, first.id);
    expect(reverted?.revert?.undone).toEqual(["app.txt"]);
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("version one\n");
    await keepOwnChanges(store, sandbox, s.id);
    expect(await sandbox.fs.exists("/workspace/app.txt")).toBe(false);
  });
});

describe("changes made while a revert stands", () => {
  async function oneTurn() {
    const llm = new FakeLLM([toolTurn([{ tool: "bash", input: { command: "echo by the model > a.txt", description: "write a" } }]), textTurn("done")]);
    const { store, sandbox, service } = await setup(llm);
    const s = await service.createSession();
    const user = await service.prompt(s.id, { text: "write a" });
    await service.ensureRunning(s.id);
    return { store, sandbox, s, user };
  }

  it("survive Unrevert: an upload, an edit and a deletion made during the revert are the user's", async () => {
    const { store, sandbox, s, user } = await oneTurn();
    await writeUserFile(sandbox, "u.txt", "uploaded\n");
    await revertSession(store, sandbox, s.id, user.id);
    expect(await sandbox.fs.exists("/workspace/a.txt")).toBe(false);
    await writeUserFile(sandbox, "during.txt", "made during the revert\n");
    await writeUserFile(sandbox, "u.txt", "edited during the revert\n");
    await sandbox.fs.rm("/workspace/app.txt");
    await unrevertSession(store, sandbox, s.id);
    expect(await sandbox.fs.readText("/workspace/a.txt")).toBe("by the model\n");
    expect(await sandbox.fs.readText("/workspace/during.txt")).toBe("made during the revert\n");
    expect(await sandbox.fs.readText("/workspace/u.txt")).toBe("edited during the revert\n");
    expect(await sandbox.fs.exists("/workspace/app.txt")).toBe(false);
  });

  it("survive a further revert and then Unrevert", async () => {
    const { store, sandbox, s, first, second } = await twoTurns([
      { command: "echo one > a.txt", description: "one", prompt: "one", answer: "one" },
      { command: "echo two > b.txt", description: "two", prompt: "two", answer: "two" },
    ]);
    await revertSession(store, sandbox, s.id, second.id);
    await writeUserFile(sandbox, "between.txt", "between the reverts\n");
    await revertSession(store, sandbox, s.id, first.id);
    expect(await sandbox.fs.exists("/workspace/a.txt")).toBe(false);
    expect(await sandbox.fs.readText("/workspace/between.txt")).toBe("between the reverts\n");
    await unrevertSession(store, sandbox, s.id);
    expect(await sandbox.fs.readText("/workspace/a.txt")).toBe("one\n");
    expect(await sandbox.fs.readText("/workspace/b.txt")).toBe("two\n");
    expect(await sandbox.fs.readText("/workspace/between.txt")).toBe("between the reverts\n");
  });

  it("a further revert that puts back a file the user changed while the first stood names it, and Keep my changes keeps it", async () => {
    const { store, sandbox, s, first, second } = await twoTurns([
      { command: "echo one > a.txt", description: "one", prompt: "one", answer: "one" },
      { command: "echo two > b.txt", description: "two", prompt: "two", answer: "two" },
    ]);
    await revertSession(store, sandbox, s.id, second.id);
    // While the first revert stands, the user writes b.txt (a file of turn 2) and edits a.txt (turn 1's).
    await writeUserFile(sandbox, "b.txt", "the user's b\n");
    await writeUserFile(sandbox, "a.txt", "the user's a\n");
    const twice = await revertSession(store, sandbox, s.id, first.id);
    expect(twice?.revert?.undone).toEqual(["a.txt", "b.txt"]);
    expect(await sandbox.fs.exists("/workspace/a.txt")).toBe(false);
    await keepOwnChanges(store, sandbox, s.id);
    expect(await sandbox.fs.readText("/workspace/a.txt")).toBe("the user's a\n");
    expect(await sandbox.fs.readText("/workspace/b.txt")).toBe("the user's b\n");
  });

  it("a further revert into imported turns keeps what the user changed since the first (Unrevert brings it back)", async () => {
    const { store, sandbox, s, first, second } = await twoTurns([
      { command: "echo imported > a.txt", description: "imported", prompt: "one", answer: "one" },
      { command: "echo local > b.txt", description: "local", prompt: "two", answer: "two" },
    ], { importedFirst: true });
    await revertSession(store, sandbox, s.id, second.id);
    await writeUserFile(sandbox, "mine.txt", "mine\n");
    const twice = await revertSession(store, sandbox, s.id, first.id);
    expect(twice?.revert?.filesKept).toBe(true);
    await unrevertSession(store, sandbox, s.id);
    expect(await sandbox.fs.readText("/workspace/mine.txt")).toBe("mine\n");
    expect(await sandbox.fs.readText("/workspace/b.txt")).toBe("local\n");
  });

  it("a revert imported from another browser can be undone: the messages come back, the files stay", async () => {
    const { store, sandbox, s, user } = await oneTurn();
    await revertSession(store, sandbox, s.id, user.id);
    // As after an import: the revert names states this browser never held.
    await store.updateSession(s.id, (x) => (x.revert ? { ...x, revert: { ...x.revert, snapshot: "f".repeat(40), after: "e".repeat(40) } } : x));
    await writeUserFile(sandbox, "mine.txt", "kept\n");
    const back = await unrevertSession(store, sandbox, s.id);
    expect(back?.revert).toBeUndefined();
    expect(await sandbox.fs.readText("/workspace/mine.txt")).toBe("kept\n");
    expect(await sandbox.fs.exists("/workspace/a.txt")).toBe(false);
  });
});

describe("a command of the person's that runs when a turn starts", () => {
  it("is the person's change: the turn's tools wait for it, its file is not in the turn's patch, and revert keeps it", async () => {
    const sandbox = await createLocalSandboxForTests({ files: { "app.txt": "version one\n" } });
    const llm = new FakeLLM([toolTurn([{ tool: "bash", input: { command: "ls", description: "list" } }]), textTurn("done")]);
    // As the terminal reports it (app/shell-runs.ts): a command of the person's runs until `ended`.
    let ended = () => {};
    const commandDone = new Promise<void>((resolve) => {
      ended = resolve;
    });
    const { store, service } = makeTestService({ llm, tools: workspaceTools, sandbox, userCommandsDone: () => commandDone });
    const s = await service.createSession();
    const user = await service.prompt(s.id, { text: "list the files" });
    const run = service.ensureRunning(s.id);
    // The person's command finishes after the turn started.
    await new Promise((r) => setTimeout(r, 50));
    await sandbox.fs.writeFile("/workspace/late.txt", "mine\n");
    ended();
    await run;
    const msgs = await store.messages(s.id);
    const ls = msgs.flatMap((m) => m.parts).find((p) => p.type === "tool");
    expect(ls?.type === "tool" && ls.state.status === "completed" && ls.state.output).toContain("late.txt");
    expect(msgs.flatMap((m) => m.parts).filter((p) => p.type === "patch")).toEqual([]);
    await revertSession(store, sandbox, s.id, user.id);
    expect(await sandbox.fs.readText("/workspace/late.txt")).toBe("mine\n");
  });

  it("Stop is never held up by it: a turn waiting for a command that does not end stops at once", async () => {
    const sandbox = await createLocalSandboxForTests({});
    const llm = new FakeLLM([toolTurn([{ tool: "bash", input: { command: "ls", description: "list" } }]), textTurn("done")]);
    const { service } = makeTestService({ llm, tools: workspaceTools, sandbox, userCommandsDone: () => new Promise<void>(() => {}) });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "list" });
    const run = service.ensureRunning(s.id);
    await new Promise((r) => setTimeout(r, 100));
    const stopped = Date.now();
    await service.stop(s.id);
    await run;
    expect(Date.now() - stopped).toBeLessThan(3_000);
  });
});
