import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from "react";
import type { MessageWithParts, Part } from "../../core/schema";
import { useServices } from "./services";

/**
 * Messages of a session from IndexedDB, kept in memory by the store and patched
 * by each write (`DexieStore.watchMessages`: a write re-reads nothing, and only
 * the messages it touched get new objects), with streaming parts overlaid from
 * the bus so tokens show up before the batched writes land. `stored` is the list
 * without the overlay (index for index), `streamed` the overlaid messages by id.
 * `complete` is false while only the newest messages of a long session are read.
 */
export function useMessages(
  sessionID: string,
): { messages: MessageWithParts[]; stored: MessageWithParts[]; streamed: ReadonlyMap<string, MessageWithParts>; complete: boolean } | undefined {
  const { store, bus } = useServices();
  const subscribe = useCallback((listener: () => void) => store.watchMessages(sessionID, listener), [store, sessionID]);
  const snapshot = useSyncExternalStore(subscribe, () => store.messagesSnapshot(sessionID));
  const stored = snapshot?.messages;
  const [live, setLive] = useState<ReadonlyMap<string, Part>>(new Map());

  useEffect(() => {
    setLive(new Map());
    let pending: Map<string, Part> | undefined;
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const render = () => {
      frame = 0;
      last = performance.now();
      const batch = pending;
      pending = undefined;
      if (batch) setLive((prev) => new Map([...prev, ...batch]));
    };
    const unsub = bus.subscribe((ev) => {
      if (ev.type !== "part.live" || ev.part.sessionID !== sessionID) return;
      pending ??= new Map();
      pending.set(ev.part.id, { ...ev.part });
      if (frame || timer) return;
      // At most one render per LIVE_FRAME_MS, in an animation frame: re-rendering (and laying out) a long
      // answer 60 times a second is what makes streaming stutter; 20 updates a second still read as live.
      const wait = last + LIVE_FRAME_MS - performance.now();
      if (wait <= 0) frame = requestAnimationFrame(render);
      else
        timer = setTimeout(() => {
          timer = undefined;
          frame = requestAnimationFrame(render);
        }, wait);
    });
    return () => {
      unsub();
      if (frame) cancelAnimationFrame(frame);
      if (timer) clearTimeout(timer);
    };
  }, [bus, sessionID]);

  const complete = snapshot?.complete ?? false;
  const merged = useMemo((): { messages: MessageWithParts[]; streamed: ReadonlyMap<string, MessageWithParts> } | undefined => {
    if (!stored) return undefined;
    if (live.size === 0) return { messages: stored, streamed: NONE };
    // Only messages with a live part get new objects: the others keep their identity, so their
    // (memoised) views do not re-render on every streamed frame.
    const byMessage = new Map<string, Part[]>();
    for (const l of live.values()) byMessage.set(l.messageID, [...(byMessage.get(l.messageID) ?? []), l]);
    const streamed = new Map<string, MessageWithParts>();
    const messages = stored.map((m) => {
      const lives = byMessage.get(m.info.id);
      if (!lives) return m;
      const overlay = new Map(lives.map((l) => [l.id, l]));
      const parts = m.parts.map((p) => {
        const l = overlay.get(p.id);
        overlay.delete(p.id);
        return l ? pickNewer(p, l) : p;
      });
      // Live parts whose first write has not landed yet.
      if (overlay.size > 0) parts.push(...overlay.values());
      parts.sort((a, b) => (a.id < b.id ? -1 : 1));
      const next = { info: m.info, parts };
      streamed.set(m.info.id, next);
      return next;
    });
    return { messages, streamed };
  }, [stored, live]);
  return useMemo(() => (merged && stored ? { ...merged, stored, complete } : undefined), [merged, stored, complete]);
}

const NONE: ReadonlyMap<string, MessageWithParts> = new Map();

/** Shortest time between two renders of streamed text. */
const LIVE_FRAME_MS = 50;

const rank = { pending: 0, running: 1, completed: 2, error: 2 } as const;

/** The stored part wins once it has caught up with the live one. */
function pickNewer(stored: Part, live: Part): Part {
  if ((stored.type === "text" || stored.type === "reasoning") && (live.type === "text" || live.type === "reasoning")) {
    // Once the part is finished, what is stored is the truth (it may even have been edited since).
    if (stored.time?.end !== undefined) return stored;
    return live.text.length > stored.text.length ? live : stored;
  }
  if (stored.type === "tool" && live.type === "tool")
    return rank[live.state.status] > rank[stored.state.status] || (live.state.status === "running" && stored.state.status === "running") ? live : stored;
  return stored;
}
