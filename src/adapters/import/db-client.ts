/** The page's side of the opencode.db Worker: promise per request, one Worker per opened file. */
import type { DbSessionSummary, HistorySession, ImportIssue } from "../../core/import";
import type { DbRequest, DbResponse } from "./db-protocol";

type Req = DbRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

export interface HistoryDb {
  sessions: DbSessionSummary[];
  /** Which OpenCode schema generations the file holds, in words. */
  schema: string;
  /** Milliseconds from the drop to the list. */
  ms: number;
  /** What the user should know about how the file was read (its -wal file, WAL mode without one). */
  notes: string[];
  read(sessions: DbSessionSummary[], importedAt: number): Promise<{ sessions: HistorySession[]; issues: ImportIssue[] }>;
  close(): void;
}

/** Opens `file` in a Worker; `wal` is its `-wal` file when the user dropped one with it. */
export async function openHistoryDb(file: Blob, wal?: Blob): Promise<{ ok: true; value: HistoryDb } | { ok: false; error: string }> {
  const worker = new Worker(new URL("./db-worker.ts", import.meta.url), { type: "module", name: "tabcode-history-db" });
  let next = 1;
  const waiting = new Map<number, (r: DbResponse) => void>();
  worker.onmessage = (e: MessageEvent<DbResponse>) => {
    waiting.get(e.data.id)?.(e.data);
    waiting.delete(e.data.id);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    for (const w of waiting.values()) w({ id: 0, type: "error", error: "The database reader stopped unexpectedly." });
    waiting.clear();
  };
  const ask = (req: Req): Promise<DbResponse> =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      worker.postMessage({ ...req, id });
    });
  const opened = await ask(wal ? { type: "open", file, wal } : { type: "open", file });
  if (opened.type !== "opened") {
    worker.terminate();
    return { ok: false, error: opened.type === "error" ? opened.error : "The database could not be opened." };
  }
  return {
    ok: true,
    value: {
      sessions: opened.sessions,
      schema: opened.schema,
      ms: opened.ms,
      notes: opened.notes,
      async read(sessions, importedAt) {
        const r = await ask({ type: "read", sessions, importedAt });
        if (r.type === "read") return { sessions: r.sessions, issues: r.issues };
        throw new Error(r.type === "error" ? r.error : "unexpected answer");
      },
      close: () => worker.terminate(),
    },
  };
}
