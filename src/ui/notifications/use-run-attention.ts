import { useEffect, useRef } from "react";
import { useServices } from "../hooks/services";
import { type AttentionEvent, addUnseen, clearSeen, dropApproval, isUnwatched, notificationText, type Unseen, type Watching } from "./attention";
import { canNotify } from "./preference";
import { tabTitle } from "./title";

/** Keeps the missed events and the title badge together. */
function apply(ref: { current: Unseen }, next: Unseen): void {
  if (next === ref.current) return;
  ref.current = next;
  tabTitle.setUnseen(next);
}

const watching = (currentSessionID: string | undefined): Watching => ({ visible: document.visibilityState === "visible", focused: document.hasFocus(), currentSessionID });

/**
 * Watches this tab's runs: a run that finishes or fails, or a tool that waits for approval, while
 * the person looks elsewhere badges the tab title and (when enabled) shows a system notification;
 * clicking it focuses the tab on that session.
 */
export function useRunAttention(currentSessionID: string | undefined, open: (sessionID: string) => void): void {
  const { bus, permissions, sessions, store } = useServices();
  const current = useRef(currentSessionID);
  current.current = currentSessionID;
  const openRef = useRef(open);
  openRef.current = open;
  const unseen = useRef<Unseen>(new Map());

  useEffect(() => {
    const failed = new Set<string>();
    let asked = new Set(permissions.pending().map((p) => p.id));
    const happen = (ev: AttentionEvent) => {
      const w = watching(current.current);
      apply(unseen, addUnseen(unseen.current, ev, w));
      if (!isUnwatched(ev, w) || !canNotify()) return;
      void store.getSession(ev.sessionID).then((s) => {
        const text = notificationText(ev.kind, s?.title ?? "a session");
        const n = new Notification(text.title, { body: text.body, tag: `tabcode-${ev.sessionID}` });
        n.onclick = () => {
          window.focus();
          openRef.current(ev.sessionID);
          n.close();
        };
      });
    };
    // Runs end when a session leaves the status map (idle); errors are told on the bus first.
    let before = sessions.getStatuses();
    const offBus = bus.subscribe((ev) => {
      if (ev.type === "session.error") failed.add(ev.sessionID);
    });
    const offStatus = sessions.subscribe(() => {
      const now = sessions.getStatuses();
      for (const id of before.keys()) {
        if (now.has(id)) continue;
        happen({ sessionID: id, kind: failed.has(id) ? "failed" : "finished" });
        failed.delete(id);
      }
      before = now;
    });
    const offAsk = permissions.subscribe(() => {
      const now = permissions.pending();
      for (const p of now) if (!asked.has(p.id)) happen({ sessionID: p.sessionID, kind: "approval" });
      // Answered or withdrawn (Stop): a session with no question left loses its approval mark.
      for (const sessionID of [...unseen.current.keys()]) if (!now.some((p) => p.sessionID === sessionID)) apply(unseen, dropApproval(unseen.current, sessionID));
      asked = new Set(now.map((p) => p.id));
    });
    const seen = () => apply(unseen, clearSeen(unseen.current, watching(current.current)));
    document.addEventListener("visibilitychange", seen);
    window.addEventListener("focus", seen);
    return () => {
      offBus();
      offStatus();
      offAsk();
      document.removeEventListener("visibilitychange", seen);
      window.removeEventListener("focus", seen);
    };
  }, [bus, permissions, sessions, store]);

  // Opening a session is looking at it.
  useEffect(() => apply(unseen, clearSeen(unseen.current, watching(currentSessionID))), [currentSessionID]);
}
