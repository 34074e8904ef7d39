/** The page's side of the history reader: a promise per request, one Worker per import. */
import type { HistoryChunk, ImportIssue } from "../../core/import";
import type { HistoryRequest, HistoryResponse } from "./history-protocol";

type Req = HistoryRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

export interface HistoryStart {
  /** Indexes of the files that go through the export import. */
  exports: number[];
  unknown: string[];
  issues: ImportIssue[];
  /** Bytes of the history files the reader will map. */
  bytes: number;
}

export interface HistoryReader {
  /** Reads and sorts the files; fails with the reader's words. */
  start(): Promise<HistoryStart>;
  /** The next chunk; fails with the reader's words, or when the reader stopped. */
  next(): Promise<HistoryChunk>;
  /** Stops the reader, whatever it is doing. */
  close(): void;
}

/** What a failed or crashed reader answers. */
export const READER_STOPPED = "The history reader stopped unexpectedly: the sessions imported before it stopped are kept.";

interface Port {
  post(req: HistoryRequest): void;
  onAnswer: (r: HistoryResponse) => void;
  onCrash: () => void;
  close(): void;
}

function workerPort(): Port {
  const worker = new Worker(new URL("./history-worker.ts", import.meta.url), { type: "module", name: "tabcode-history-reader" });
  const port: Port = {
    post: (req) => worker.postMessage(req),
    onAnswer: () => undefined,
    onCrash: () => undefined,
    close: () => worker.terminate(),
  };
  worker.onmessage = (e: MessageEvent<HistoryResponse>) => port.onAnswer(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    port.onCrash();
  };
  worker.onmessageerror = () => port.onCrash();
  return port;
}

/** Where there are no Workers (unit tests in Node), the same reader runs on this thread, loaded on first use. */
function inProcessPort(): Port {
  let closed = false;
  const port: Port = {
    post(req) {
      void import("./history-reader").then(async ({ serveHistoryReader }) => {
        handler ??= serveHistoryReader((m) => {
          if (!closed) port.onAnswer(m);
        });
        await handler(req);
      });
    },
    onAnswer: () => undefined,
    onCrash: () => undefined,
    close: () => {
      closed = true;
    },
  };
  let handler: ((req: HistoryRequest) => Promise<void>) | undefined;
  return port;
}

/** Starts a reader of `files`; its Worker's code is fetched only now. */
export function readHistoryFiles(files: readonly { path: string; file: Blob }[], importedAt: number): HistoryReader {
  const port = typeof Worker === "function" ? workerPort() : inProcessPort();
  let next = 1;
  let stopped: string | undefined;
  const waiting = new Map<number, (r: HistoryResponse) => void>();
  const stop = (error: string) => {
    stopped ??= error;
    for (const w of waiting.values()) w({ id: 0, type: "error", error });
    waiting.clear();
  };
  port.onAnswer = (r) => {
    waiting.get(r.id)?.(r);
    waiting.delete(r.id);
  };
  port.onCrash = () => {
    stop(READER_STOPPED);
    port.close();
  };
  const ask = (req: Req): Promise<HistoryResponse> =>
    new Promise((resolve) => {
      if (stopped !== undefined) {
        resolve({ id: 0, type: "error", error: stopped });
        return;
      }
      const id = next++;
      waiting.set(id, resolve);
      port.post({ ...req, id } as HistoryRequest);
    });
  return {
    async start() {
      const r = await ask({ type: "start", files: files.map((f) => ({ path: f.path, file: f.file })), importedAt });
      if (r.type === "started") return { exports: r.exports, unknown: r.unknown, issues: r.issues, bytes: r.bytes };
      throw new Error(r.type === "error" ? r.error : "unexpected answer");
    },
    async next() {
      const r = await ask({ type: "next" });
      if (r.type === "chunk") return { sessions: r.sessions, issues: r.issues, read: r.read, last: r.last };
      throw new Error(r.type === "error" ? r.error : "unexpected answer");
    },
    close() {
      stop("The import was stopped.");
      port.close();
    },
  };
}
