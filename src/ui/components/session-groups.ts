import { useCallback, useState } from "react";
import type { Session } from "../../core/schema";
import { dateGroup } from "../format";

export interface SessionGroup {
  label: "Pinned" | "Today" | "Yesterday" | "Earlier";
  sessions: Session[];
}

/** How deep a session is listed: 0 for a top-level one, 1 under its parent, and so on (listed children only). */
export type Depths = ReadonlyMap<string, number>;

/**
 * Pinned first, then by the day of the last change; order inside a group is kept (newest first). A session
 * with a parent in the same group (a subagent's, a "Start fresh" child) is listed right under it, with its
 * depth; one that belongs to another group (pinned, or changed on a later day) stays in its own, so a
 * session in use is never buried under an old parent.
 */
export function groupSessions(list: Session[], pinned: ReadonlySet<string>, now = Date.now()): SessionGroup[] & { depths: Depths } {
  const groups: SessionGroup[] = [
    { label: "Pinned", sessions: [] },
    { label: "Today", sessions: [] },
    { label: "Yesterday", sessions: [] },
    { label: "Earlier", sessions: [] },
  ];
  const labelOf = (s: Session): SessionGroup["label"] => (pinned.has(s.id) ? "Pinned" : dateGroup(s.time.updated, now));
  const byID = new Map(list.map((s) => [s.id, s]));
  const children = new Map<string, Session[]>();
  const nested = new Set<string>();
  for (const s of list) {
    const parent = s.parentID === undefined || s.parentID === s.id ? undefined : byID.get(s.parentID);
    if (!parent || labelOf(parent) !== labelOf(s)) continue;
    const kids = children.get(parent.id) ?? [];
    kids.push(s);
    children.set(parent.id, kids);
    nested.add(s.id);
  }
  const depths = new Map<string, number>();
  const place = (into: Session[], s: Session, depth: number) => {
    if (depths.has(s.id)) return; // a cycle in damaged data: each session once
    depths.set(s.id, depth);
    into.push(s);
    for (const c of children.get(s.id) ?? []) place(into, c, depth + 1);
  };
  for (const s of list) {
    if (nested.has(s.id)) continue;
    const group = groups.find((g) => g.label === labelOf(s));
    if (group) place(group.sessions, s, 0);
  }
  // Sessions only reachable through a cycle of parents: listed at the top level.
  for (const s of list) if (!depths.has(s.id)) groups.find((g) => g.label === dateGroup(s.time.updated, now))?.sessions.push(s);
  return Object.assign(
    groups.filter((g) => g.sessions.length > 0),
    { depths },
  );
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
