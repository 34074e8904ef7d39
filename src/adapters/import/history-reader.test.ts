import { afterEach, describe, expect, it } from "vitest";
import type { AppServices } from "../../app/bootstrap";
import { importTextFiles } from "../../app/history-import";
import { importHistoryFiles } from "../../core/import";
import { fixtureFiles } from "../../core/import/test-files";
import { MemoryStore } from "../../testing/memory-store";
import { READER_STOPPED } from "./history-client";
import type { HistoryRequest, HistoryResponse } from "./history-protocol";
import { serveHistoryReader } from "./history-reader";

const NOW = 1_800_000_000_000;

/** A Claude Code transcript of one short exchange. */
function transcript(id: string): string {
  const at = "2025-11-04T10:00:00.000Z";
  return [
    { type: "user", sessionId: id, uuid: `${id}-u`, timestamp: at, message: { role: "user", content: `Question ${id}` } },
    { type: "assistant", sessionId: id, uuid: `${id}-a`, parentUuid: `${id}-u`, timestamp: at, message: { id: `${id}-m`, role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: `Answer ${id}` }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 } } },
  ]
    .map((l) => JSON.stringify(l))
    .join("\n");
}

const drop = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `projects/p/s${i}.jsonl`, file: new File([transcript(`s${i}`)], `s${i}.jsonl`) }));

/** Drives the reader as the Worker would, collecting its answers. */
function driven() {
  const answers: HistoryResponse[] = [];
  const handle = serveHistoryReader((m) => answers.push(m));
  let id = 0;
  const ask = async (req: { type: "next" } | Omit<Extract<HistoryRequest, { type: "start" }>, "id">) => {
    await handle({ ...req, id: ++id } as HistoryRequest);
    return answers.at(-1);
  };
  return { ask };
}

describe("the history reader's protocol", () => {
  it("sorts the files on start, then answers each next with a chunk until the last", async () => {
    const { ask } = driven();
    const texts = [...fixtureFiles("claude-code"), ...fixtureFiles("codex"), { path: "x/readme.json", text: '{"name": "x"}' }];
    const files = texts.map((f) => ({ path: f.path, file: new File([f.text], f.path) }));
    expect(await ask({ type: "start", files, importedAt: NOW })).toMatchObject({ id: 1, type: "started", exports: [], unknown: ["x/readme.json"], issues: [] });
    const chunks: HistoryResponse[] = [];
    for (let a = await ask({ type: "next" }); a; a = await ask({ type: "next" })) {
      chunks.push(a);
      if (a.type !== "chunk" || a.last) break;
    }
    const sessions = chunks.flatMap((c) => (c.type === "chunk" ? c.sessions : []));
    expect(sessions.map((s) => s.info.source?.tool)).toEqual(["claude-code", "codex", "claude-code"]);
    expect(chunks.at(-1)).toMatchObject({ type: "chunk", last: true });
    // The fixtures' broken records: reported as the whole-drop import reports them.
    const issues = chunks.flatMap((c) => (c.type === "chunk" ? c.issues : []));
    expect(issues.length).toBeGreaterThan(0);
    expect(issues).toEqual(importHistoryFiles(texts, NOW).issues);
  });

  it("a next without a start, or after the last chunk, is an error in words", async () => {
    const { ask } = driven();
    expect(await ask({ type: "next" })).toEqual({ id: 1, type: "error", error: "The history files could not be read (no import was started)." });
    await ask({ type: "start", files: drop(1), importedAt: NOW });
    expect(await ask({ type: "next" })).toMatchObject({ type: "chunk", last: true });
    expect(await ask({ type: "next" })).toMatchObject({ type: "error" });
  });
});

/** A stand-in for the browser's Worker: the real reader on this thread, which can crash or go quiet after `answered` chunks. */
function fakeWorker(answered: number, then: "crash" | "hang") {
  const made: { terminated: boolean }[] = [];
  class FakeWorker {
    onmessage: ((e: { data: HistoryResponse }) => void) | null = null;
    onerror: ((e: { preventDefault(): void }) => void) | null = null;
    onmessageerror: (() => void) | null = null;
    terminated = false;
    private nexts = 0;
    private handle = serveHistoryReader((m) => setTimeout(() => this.onmessage?.({ data: m })));
    constructor() {
      made.push(this);
    }
    postMessage(req: HistoryRequest) {
      if (req.type === "next" && ++this.nexts > answered) {
        if (then === "crash") setTimeout(() => this.onerror?.({ preventDefault: () => undefined }));
        return;
      }
      void this.handle(req);
    }
    terminate() {
      this.terminated = true;
    }
  }
  return { FakeWorker, made };
}

describe("importing text files through the reader", () => {
  const real = globalThis.Worker;
  afterEach(() => {
    globalThis.Worker = real;
  });
  const app = () => ({ store: new MemoryStore() }) as unknown as AppServices;

  it("without Workers the reader runs on the page's thread: every session is written, parents first, with progress", async () => {
    const a = app();
    const seen: number[] = [];
    const out = await importTextFiles(a, drop(30), { onProgress: (p) => seen.push(p.done) });
    expect(out).toMatchObject({ created: 30, cancelled: false, issues: [], unknown: [] });
    expect(out.error).toBeUndefined();
    expect(await a.store.listSessions()).toHaveLength(30);
    expect(seen.at(-1)).toBe(30);
    // Imported again: recognised and skipped.
    expect(await importTextFiles(a, drop(30))).toMatchObject({ created: 0, unchanged: 30 });
  });

  it("a crashed reader ends the import with a clear error; the chunks written before it stay", async () => {
    const { FakeWorker, made } = fakeWorker(1, "crash");
    globalThis.Worker = FakeWorker as unknown as typeof Worker;
    const a = app();
    const out = await importTextFiles(a, drop(30));
    expect(out.error).toBe(READER_STOPPED);
    expect(out.created).toBe(25);
    expect(await a.store.listSessions()).toHaveLength(25);
    expect(made[0]?.terminated).toBe(true);
  });

  it("Cancel ends the import at once, even while the reader is busy with a chunk, and stops the reader", async () => {
    const { FakeWorker, made } = fakeWorker(1, "hang");
    globalThis.Worker = FakeWorker as unknown as typeof Worker;
    const a = app();
    const abort = new AbortController();
    // Pressed once the first chunk is written, while the reader works on (here: never finishes) the next one.
    const out = await importTextFiles(a, drop(30), { signal: abort.signal, onProgress: (p) => p.done > 0 && setTimeout(() => abort.abort(), 20) });
    expect(out).toMatchObject({ created: 25, cancelled: true });
    expect(out.error).toBeUndefined();
    expect(made[0]?.terminated).toBe(true);
  });
});
