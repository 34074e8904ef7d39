import { useEffect, useState } from "react";
import { useServices } from "../hooks/services";
import { mentionAt } from "./mention-at";

type Filter = (paths: readonly string[], query: string, limit?: number) => string[];

export const MENTION_LIST_ID = "mention-options";

/**
 * The @ mention being typed at the caret and the workspace files that match it. The file list
 * is read from the session's sandbox each time a mention starts (so new files show up).
 */
export function useMentions(sessionID: string, text: string, caret: number) {
  const { sandbox } = useServices();
  const at = mentionAt(text, caret);
  const [paths, setPaths] = useState<string[] | null>(null);
  // The walk and the matcher load with the first @ (their own chunk).
  const [filter, setFilter] = useState<{ fn: Filter } | null>(null);
  // Escape dismisses the list for this exact mention; typing on opens it again.
  const [closedAt, setClosedAt] = useState<string | undefined>();
  const [active, setActive] = useState(0);
  const start = at?.start;
  const key = at ? `${at.start}:${at.query}` : undefined;
  const open = at !== undefined && closedAt !== key;

  useEffect(() => {
    if (start === undefined) {
      setPaths(null);
      setClosedAt(undefined);
      return;
    }
    let live = true;
    Promise.all([import("../../core/workspace/paths"), import("./fuzzy"), sandbox.sandboxFor(sessionID)])
      .then(async ([{ workspacePaths }, { fuzzyFilter }, sb]) => {
        const p = await workspacePaths(sb);
        if (!live) return;
        setFilter({ fn: fuzzyFilter });
        setPaths(p);
      })
      .catch(() => live && setPaths([]));
    return () => {
      live = false;
    };
  }, [sandbox, sessionID, start]);

  const query = at?.query ?? "";
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query starts at the best match
  useEffect(() => setActive(0), [query]);
  const items = open && paths && filter ? filter.fn(paths, query, 8) : [];
  return {
    /** The mention's start (the @) while one is typed and not dismissed. */
    start: open ? start : undefined,
    loading: open && paths === null,
    items,
    active: Math.min(active, Math.max(0, items.length - 1)),
    setActive,
    close: () => setClosedAt(key),
  };
}
