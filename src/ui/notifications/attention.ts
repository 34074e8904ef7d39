/**
 * When a run needs the person's attention (it finished, failed, or waits for an approval) and they
 * are not looking at it — the tab is hidden or unfocused, or another session is open — the tab
 * title gets a badge and, if they asked for it, a system notification is shown. Pure logic.
 */

export type AttentionKind = "finished" | "failed" | "approval";

export interface AttentionEvent {
  sessionID: string;
  kind: AttentionKind;
}

/** What the person is looking at right now. */
export interface Watching {
  /** The page is visible (`document.visibilityState`). */
  visible: boolean;
  /** The window has focus (`document.hasFocus()`). */
  focused: boolean;
  /** The session open in this tab, if any. */
  currentSessionID?: string;
}

/** Whether the person would miss the event where it happens. */
export function isUnwatched(ev: AttentionEvent, w: Watching): boolean {
  return !w.visible || !w.focused || ev.sessionID !== w.currentSessionID;
}

/** The sessions waiting to be looked at, newest event per session. */
export type Unseen = ReadonlyMap<string, AttentionKind>;

/** Adds an event the person missed (an approval stays an approval until it is seen). */
export function addUnseen(unseen: Unseen, ev: AttentionEvent, w: Watching): Unseen {
  if (!isUnwatched(ev, w)) return unseen;
  const next = new Map(unseen);
  next.set(ev.sessionID, unseen.get(ev.sessionID) === "approval" && ev.kind !== "approval" ? "approval" : ev.kind);
  return next;
}

/** Drops what the person sees now: the open session, once the tab is visible and focused. */
export function clearSeen(unseen: Unseen, w: Watching): Unseen {
  if (!w.visible || !w.focused || w.currentSessionID === undefined || !unseen.has(w.currentSessionID)) return unseen;
  const next = new Map(unseen);
  next.delete(w.currentSessionID);
  return next;
}

/** An answered (or withdrawn) approval no longer needs attention; the run's end will be its own event. */
export function dropApproval(unseen: Unseen, sessionID: string): Unseen {
  if (unseen.get(sessionID) !== "approval") return unseen;
  const next = new Map(unseen);
  next.delete(sessionID);
  return next;
}

/** The tab title: `(2) ⚠ base` while something waits for approval, `(1) ✓ base` after runs finished. */
export function badgeTitle(base: string, unseen: Unseen): string {
  if (unseen.size === 0) return base;
  const kinds = [...unseen.values()];
  const mark = kinds.includes("approval") ? "⚠" : kinds.includes("failed") ? "✗" : "✓";
  return `(${unseen.size}) ${mark} ${base}`;
}

/** The system notification's words for an event. */
export function notificationText(kind: AttentionKind, title: string): { title: string; body: string } {
  switch (kind) {
    case "approval":
      return { title: `Approval needed — ${title}`, body: "The agent waits for your answer before it goes on." };
    case "failed":
      return { title: `Run failed — ${title}`, body: "The run stopped with an error." };
    case "finished":
      return { title: `Run finished — ${title}`, body: "The agent has answered." };
  }
}
