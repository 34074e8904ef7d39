import { namedError } from "../errors";
import { ascendingId } from "../ids";
import type { Sandbox } from "../ports/sandbox";
import type { Store } from "../ports/store";
import type { MessageWithParts } from "../schema";
import { messagesToRead } from "./read-messages";

/**
 * The patch a step cut short never wrote: the files changed since its
 * starting snapshot (what the workspace holds now is where it stopped).
 */
async function missingPatch(store: Store, m: MessageWithParts, sandbox: Sandbox | undefined): Promise<void> {
  if (!sandbox || m.parts.some((p) => p.type === "patch")) return;
  const start = m.parts.find((p) => p.type === "step-start");
  const from = start?.type === "step-start" ? start.snapshot : undefined;
  if (!from) return;
  try {
    const files = await sandbox.changed(from, await sandbox.snapshot());
    if (files.length) await store.upsertPart({ id: ascendingId("prt"), sessionID: m.info.sessionID, messageID: m.info.id, type: "patch", hash: from, files });
  } catch {
    // A missing snapshot (another device, a cleared store): those files cannot be restored, the rest of the repair still runs.
  }
}

/**
 * The running tool part's metadata key noting that a permission question waits for the user (`{ since, nested? }`,
 * written by the step when the broker parks the question and removed when it is answered).
 */
export const AWAITING_APPROVAL = "awaitingApproval";

/** When (and whether for a command the call's line runs) a running tool part waited for approval, if it did. */
function awaitedApproval(metadata: Record<string, unknown> | undefined): { since: number; nested: boolean } | undefined {
  const v = metadata?.[AWAITING_APPROVAL];
  if (typeof v !== "object" || v === null || !("since" in v) || typeof v.since !== "number") return undefined;
  return { since: v.since, nested: "nested" in v && v.nested === true };
}

/** Why an answer was left unfinished, in words: a full storage is named when the store noted it. */
function interruptedBecause(store: Store, messageID: string): string {
  if (store.storageWasFull === undefined)
    return "Interrupted: this answer stopped before it was completely saved (the tab was closed or reloaded, or the browser's storage was full while it streamed).";
  if (store.storageWasFull(messageID))
    return "Interrupted: the browser's storage was full while this answer streamed, so its end could not be saved. Free some space (export, then delete old sessions), then ask again to continue.";
  return "Interrupted: this answer stopped before it was completely saved (the tab was closed or reloaded while it streamed).";
}

/**
 * Crash safety: after a tab was closed mid-stream, assistant messages without
 * `time.completed` are marked interrupted and their unfinished tool calls become
 * errors, so nothing stays "running" and the session can continue. A step
 * whose patch was not written yet gets it from its starting snapshot, so the
 * turn can still be reverted. Returns how many messages were repaired.
 */
export async function repairSession(
  store: Store,
  sessionID: string,
  now: number,
  sandbox?: () => Promise<Sandbox | undefined>,
  /** Whether a run has started on the session since the caller checked (its answer is unfinished, not interrupted). */
  runStarted?: () => Promise<boolean>,
): Promise<number> {
  // Nearly always there is nothing to repair: that is seen on the messages' infos alone (a session on screen
  // answers from its own rows). Then the messages are read without a copy where the store shares them: the
  // repair only reads them and writes new objects (a deep copy of a 2,000-part session cost the page ~45-90 ms
  // of a first send's time, traced: a session view asks for this repair when the page is idle after opening).
  if (store.messageInfos && !(await store.messageInfos(sessionID)).some((i) => i.role === "assistant" && !i.time.completed)) return 0;
  const msgs = await messagesToRead(store, sessionID);
  let repaired = 0;
  for (const m of msgs) {
    const info = m.info;
    if (info.role !== "assistant" || info.time.completed) continue;
    // The session may have been deleted since it was read (repair runs when the page is idle): writing now
    // would bring its messages back without the session. Or a send may have started a run meanwhile: its own
    // answer has no completion time yet either, and the run repairs before it starts anyway.
    if (!(await store.getSession(sessionID)) || (await runStarted?.())) return repaired;
    await missingPatch(store, m, await sandbox?.().catch(() => undefined));
    let waited = false;
    for (const p of m.parts) {
      if (p.type !== "tool") continue;
      const s = p.state;
      if (s.status !== "pending" && s.status !== "running") continue;
      const start = s.status === "running" ? s.time.start : now;
      const approval = s.status === "running" ? awaitedApproval(s.metadata) : undefined;
      if (approval) waited = true;
      // A call that waited for the user's answer did not run on (and a command its line runs was not started):
      // it ends when the question was asked, not when the session was opened again.
      const error = approval
        ? approval.nested
          ? "Stopped: the tab was closed or reloaded while a command this call runs waited for your approval; that command did not run."
          : "Not run: the tab was closed or reloaded while this call waited for your approval."
        : "Interrupted: the tab was closed while this tool ran.";
      await store.upsertPart({
        ...p,
        state: { status: "error", input: s.input, error, metadata: { interrupted: true }, time: { start, end: approval ? Math.max(start, approval.since) : now } },
      });
    }
    const because = waited
      ? "Stopped while waiting for your approval: the tab was closed or reloaded before you answered. Continue, and the model can make the call again."
      : interruptedBecause(store, info.id);
    await store.upsertMessage({
      ...info,
      time: { ...info.time, completed: now },
      error: info.error ?? namedError("MessageAbortedError", { message: because }),
    });
    repaired++;
  }
  return repaired;
}
