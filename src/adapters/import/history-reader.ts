/**
 * The history reader's side of the protocol, apart from the Worker it runs in
 * so tests (and a page without Workers) can drive it directly: it reads and
 * sorts the dropped files on `start`, then maps and hands over one chunk per
 * `next`. Nothing here touches storage; the page writes what it is handed.
 */
import { CHUNK_LIMITS, type ChunkLimits, type HistoryChunk, historyChunks, mapDrop, sortDrop } from "../../core/import";
import type { HistoryRequest, HistoryResponse } from "./history-protocol";

/** Returns the handler of the page's requests; answers go through `post`. */
export function serveHistoryReader(post: (m: HistoryResponse) => void, limits: ChunkLimits = CHUNK_LIMITS): (req: HistoryRequest) => Promise<void> {
  let chunks: Generator<HistoryChunk> | undefined;
  return async (req) => {
    try {
      if (req.type === "start") {
        const plan = await sortDrop(req.files.map((f) => ({ path: f.path, size: f.file.size, text: () => f.file.text() })));
        chunks = historyChunks(mapDrop(plan, req.importedAt), limits);
        post({ id: req.id, type: "started", ...plan.sorted });
        return;
      }
      if (!chunks) throw new Error("no import was started");
      const r = chunks.next();
      if (r.done) throw new Error("the import has already ended");
      if (r.value.last) chunks = undefined;
      post({ id: req.id, type: "chunk", ...r.value });
    } catch (e) {
      // The mappers report damaged records as issues; a throw is a fault of the reader itself (or memory running out).
      chunks = undefined;
      post({ id: req.id, type: "error", error: `The history files could not be read (${(e instanceof Error ? e.message : String(e)).slice(0, 200)}).` });
    }
  };
}
