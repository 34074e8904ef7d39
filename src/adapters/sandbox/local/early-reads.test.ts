/**
 * The page's early reads of a persisted workspace answer exactly what the Worker's sandbox answers
 * once it has loaded the same rows; symlinks and paths outside the workspace are left to the Worker.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { SandboxFS } from "../../../core/ports/sandbox";
import { DexieWorkspaceStore } from "./dexie-workspace-store";
import { AskTheWorker, persistedReads } from "./early-reads";
import { createLocalSandboxForTests } from "./testing";
import { type WorkerLike, WorkerSandbox } from "./worker-client";
import { WorkerHost } from "./worker-host";
import type { WorkerRequest, WorkerResponse } from "./worker-protocol";
import { LocalSandbox } from "./local-sandbox";

let n = 0;

const FILES = {
  "AGENTS.md": "Use tabs.\n",
  "CLAUDE.md": "",
  "src/app.ts": "export const a = 1;\n",
  "src/deep/er/x.txt": "x",
  ".opencode/skill/review/SKILL.md": "---\nname: review\ndescription: Reviews\n---\nBody\n",
  "bin.dat": new Uint8Array([0, 1, 2, 255]),
};

/** What a read gives: its value, or its failure (the message's code only: both sides word ENOENT alike). */
async function outcome(f: () => Promise<unknown>): Promise<unknown> {
  try {
    const v = await f();
    if (v instanceof Uint8Array) return { bytes: [...v] };
    return { value: v };
  } catch (e) {
    if (e instanceof AskTheWorker) return "worker";
    return { error: (e as Error).message.split(":")[0] };
  }
}

const PATHS = [
  "/workspace",
  "/workspace/AGENTS.md",
  "/workspace/CLAUDE.md",
  "/workspace/.cursorrules",
  "/workspace/src",
  "/workspace/src/app.ts",
  "/workspace/src/deep",
  "/workspace/src/deep/er/x.txt",
  "/workspace/src/app.ts/nope",
  "/workspace/.opencode/skill",
  "/workspace/.opencode/skill/review/SKILL.md",
  "/workspace/.claude/skills",
  "/workspace/bin.dat",
  "/workspace/made/by/mkdir",
  "/workspace/./src/../AGENTS.md",
];

async function compare(early: ReturnType<typeof persistedReads>, fs: SandboxFS, path: string): Promise<void> {
  for (const method of ["stat", "exists", "list", "readText", "readFile"] as const) {
    const got = await outcome(() => early[method](path));
    const want = await outcome(() => fs[method](path));
    // A directory's time in the loaded sandbox is when loading filled it, not a stored fact: compared for files only.
    const strip = (o: unknown) =>
      JSON.parse(
        JSON.stringify(o, function (this: { type?: string }, k, v) {
          return k === "mtime" && this.type === "directory" ? 0 : v;
        }),
      );
    expect(strip(got), `${method} ${path}`).toEqual(strip(want));
  }
}

describe("early reads of the persisted workspace", () => {
  it("answer as the loaded sandbox does: files, seeded and made directories, missing paths, binary content", async () => {
    const store = new DexieWorkspaceStore(`early-${n++}`);
    const writer = await createLocalSandboxForTests({ store, workspace: "w", files: FILES });
    await writer.exec("mkdir -p made/by/mkdir && echo later > src/later.md");
    const loaded = await LocalSandbox.open({ workspace: "w", store });
    const early = persistedReads(store, "w");
    for (const path of [...PATHS, "/workspace/src/later.md"]) await compare(early, loaded.fs, path);
  });

  it("leave symlinks and paths outside the workspace to the Worker", async () => {
    const store = new DexieWorkspaceStore(`early-${n++}`);
    const writer = await createLocalSandboxForTests({ store, workspace: "w", files: FILES });
    await writer.exec("ln -s src linked && ln -s AGENTS.md rules.md");
    const early = persistedReads(store, "w");
    expect(await outcome(() => early.stat("/workspace/linked/app.ts"))).toBe("worker");
    expect(await outcome(() => early.readText("/workspace/rules.md"))).toBe("worker");
    expect(await outcome(() => early.list("/workspace"))).toBe("worker");
    expect(await outcome(() => early.stat("/tmp"))).toBe("worker");
    // A path beside the links is still answered here.
    expect(await early.readText("/workspace/AGENTS.md")).toBe("Use tabs.\n");
  });
});

/** A Worker that answers only once `release()` is called (as one still loading its script). */
class SlowWorker implements WorkerLike {
  onmessage: ((e: MessageEvent<WorkerResponse>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  readonly ops: string[] = [];
  private held: WorkerRequest[] = [];
  private live = false;
  private readonly host: WorkerHost;
  constructor(store: DexieWorkspaceStore) {
    this.host = new WorkerHost(
      (msg) => setTimeout(() => this.onmessage?.({ data: structuredClone(msg) } as MessageEvent<WorkerResponse>), 0),
      (workspace) => LocalSandbox.open({ workspace, store }),
    );
  }
  postMessage(message: WorkerRequest): void {
    this.ops.push(message.op === "fs" ? `fs.${(message as { method: string }).method}` : message.op);
    if (this.live) void this.host.handle(structuredClone(message));
    else this.held.push(structuredClone(message));
  }
  release(): void {
    this.live = true;
    for (const m of this.held.splice(0)) void this.host.handle(m);
  }
  terminate(): void {}
}

describe("WorkerSandbox with early reads", () => {
  it("reads before the Worker has started; the first change, and everything after it, goes through the Worker", async () => {
    const store = new DexieWorkspaceStore(`early-${n++}`);
    await createLocalSandboxForTests({ store, workspace: "w", files: FILES });
    const worker = new SlowWorker(store);
    const reads = persistedReads(store, "w");
    let earlyCalls = 0;
    const counted = Object.fromEntries(
      Object.entries(reads).map(([k, f]) => [
        k,
        (...a: unknown[]) => {
          earlyCalls++;
          return (f as (...x: unknown[]) => Promise<unknown>)(...a);
        },
      ]),
    ) as typeof reads;
    const sb = new WorkerSandbox("w", () => worker, { early: counted });
    void sb.ready();
    // The Worker has not answered anything yet, and the prompt's reads are already served.
    expect(await sb.fs.readText("/workspace/AGENTS.md")).toBe("Use tabs.\n");
    expect((await sb.fs.list("/workspace/.opencode/skill")).map((e) => e.name)).toEqual(["review"]);
    expect(worker.ops).toEqual(["open"]);
    expect(earlyCalls).toBe(2);
    // A change is the Worker's, and every read after it is too (it must see the change).
    const write = sb.fs.writeFile("/workspace/AGENTS.md", "Use spaces.\n");
    const stat = sb.fs.stat("/workspace/AGENTS.md");
    worker.release();
    await write;
    await stat;
    expect(await sb.fs.readText("/workspace/AGENTS.md")).toBe("Use spaces.\n");
    expect(earlyCalls).toBe(2);
    expect(worker.ops).toEqual(["open", "fs.writeFile", "fs.stat", "fs.readText"]);
  });

  it("stops reading early once the Worker has loaded the workspace", async () => {
    const store = new DexieWorkspaceStore(`early-${n++}`);
    await createLocalSandboxForTests({ store, workspace: "w", files: FILES });
    const worker = new SlowWorker(store);
    worker.release();
    const sb = new WorkerSandbox("w", () => worker, { early: persistedReads(store, "w") });
    await sb.ready();
    await sb.fs.stat("/workspace/AGENTS.md");
    expect(worker.ops).toEqual(["open", "fs.stat"]);
  });

  it("a symlink read before the Worker is up waits for the Worker", async () => {
    const store = new DexieWorkspaceStore(`early-${n++}`);
    const writer = await createLocalSandboxForTests({ store, workspace: "w", files: FILES });
    await writer.exec("ln -s AGENTS.md rules.md");
    const worker = new SlowWorker(store);
    const sb = new WorkerSandbox("w", () => worker, { early: persistedReads(store, "w") });
    void sb.ready();
    const read = sb.fs.readText("/workspace/rules.md");
    await new Promise((r) => setTimeout(r, 20));
    worker.release();
    expect(await read).toBe("Use tabs.\n");
    expect(worker.ops).toEqual(["open", "fs.readText"]);
  });
});
