import { namedError } from "../errors";
import type { Store } from "../ports/store";

/**
 * Crash safety: after a tab was closed mid-stream, assistant messages without
 * `time.completed` are marked interrupted and their unfinished tool calls become
 * errors, so nothing stays "running" and the session can continue.
 * Returns how many messages were repaired.
 */
export async function repairSession(store: Store, sessionID: string, now: number): Promise<number> {
  const msgs = await store.messages(sessionID);
  let repaired = 0;
  for (const m of msgs) {
    const info = m.info;
    if (info.role !== "assistant" || info.time.completed) continue;
    for (const p of m.parts) {
      if (p.type !== "tool") continue;
      const s = p.state;
      if (s.status !== "pending" && s.status !== "running") continue;
      const start = s.status === "running" ? s.time.start : now;
      await store.upsertPart({
        ...p,
        state: { status: "error", input: s.input, error: "Interrupted: the tab was closed while this tool ran.", metadata: { interrupted: true }, time: { start, end: now } },
      });
    }
    await store.upsertMessage({
      ...info,
      time: { ...info.time, completed: now },
      error: info.error ?? namedError("MessageAbortedError", { message: "Interrupted: this answer stopped before it was completely saved (the tab was closed or reloaded, or the browser's storage was full while it streamed)." }),
    });
    repaired++;
  }
  return repaired;
}
