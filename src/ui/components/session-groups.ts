import { useCallback, useState } from "react";
import type { Session } from "../../core/schema";
import { dateGroup } from "../format";

export interface SessionGroup {
  label: "Pinned" | "Today" | "Yesterday" | "Earlier";
  sessions: Session[];
}

/** Pinned first, then by the day of the last change; order inside a group is kept (newest first). */
export function groupSessions(list: Session[], pinned: ReadonlySet<string>, now = Date.now()): SessionGroup[] {
  const groups: SessionGroup[] = [
    { label: "Pinned", sessions: [] },
    { label: "Today", sessions: [] },
    { label: "Yesterday", sessions: [] },
    { label: "Earlier", sessions: [] },
  ];
  for (const s of list) {
    const label = pinned.has(s.id) ? "Pinned" : dateGroup(s.time.updated, now);
    groups.find((g) => g.label === label)?.sessions.push(s);
  }
  return groups.filter((g) => g.sessions.length > 0);
}

const KEY = "tabcode.pinned";

function readPins(): Set<string> {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "[]") as unknown;
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

/** Pinned sessions: a preference of this browser (kept in localStorage, not in the session). */
export function usePins(): { ids: ReadonlySet<string>; toggle: (id: string) => void } {
  const [ids, setIds] = useState<Set<string>>(readPins);
  const toggle = useCallback((id: string) => {
    setIds((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      try {
        localStorage.setItem(KEY, JSON.stringify([...next]));
      } catch {
        // Storage unavailable: the pin lasts for this page only.
      }
      return next;
    });
  }, []);
  return { ids, toggle };
}
