/**
 * The messages between the page and the model worker (llm.worker.ts), and the
 * worker's side of them (`serveLLM`), kept apart from the worker's entry so a
 * test can run both sides in one process. A request crosses as plain data (its
 * abort signal stays on the page: an `abort` message stands for it); every
 * event comes back as it is, then one `end`.
 */
import type { LLM, LLMEvent, LLMRequest, ModelConfig } from "../../core/ports/llm";

export type LLMWorkerRequest =
  | { type: "stream"; id: number; request: Omit<LLMRequest, "signal"> }
  | { type: "abort"; id: number }
  | { type: "preload"; id: number; config: ModelConfig };

export type LLMWorkerReply =
  | { type: "event"; id: number; event: LLMEvent }
  | { type: "end"; id: number }
  | { type: "preloaded"; id: number; error?: string };

/** The worker's side: answers the page's messages with `llm` (the AI SDK adapter in the worker). */
export function serveLLM(llm: LLM & { preload?(config: ModelConfig): Promise<void> }, post: (reply: LLMWorkerReply) => void): (msg: LLMWorkerRequest) => void {
  const running = new Map<number, AbortController>();
  return (msg) => {
    if (msg.type === "abort") {
      running.get(msg.id)?.abort();
      return;
    }
    if (msg.type === "preload") {
      void Promise.resolve(llm.preload?.(msg.config)).then(
        () => post({ type: "preloaded", id: msg.id }),
        (e: unknown) => post({ type: "preloaded", id: msg.id, error: e instanceof Error ? e.message : String(e) }),
      );
      return;
    }
    const controller = new AbortController();
    running.set(msg.id, controller);
    void (async () => {
      try {
        for await (const event of llm.stream({ ...msg.request, signal: controller.signal })) post({ type: "event", id: msg.id, event });
      } catch (e) {
        // The port never throws; if it does, the page still gets one error and the end.
        post({ type: "event", id: msg.id, event: { type: "error", error: { name: "UnknownError", data: { message: e instanceof Error ? e.message : String(e) } } } });
      } finally {
        running.delete(msg.id);
        post({ type: "end", id: msg.id });
      }
    })();
  };
}
