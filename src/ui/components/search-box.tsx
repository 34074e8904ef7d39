import { useCallback, useEffect, useRef, useState } from "react";
import type { SearchHit } from "../../adapters/storage/search-index";
import { useServices } from "../hooks/services";

interface Result extends SearchHit {
  title: string;
}

/** Searches titles and message content (text, tool inputs and outputs) of every session. */
export function SearchBox({ onOpen }: { onOpen: (sessionID: string, messageID?: string) => void }) {
  const { store } = useServices();
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<Result[] | null>(null);
  // The list does not change under a pressed pointer: results of a query typed meanwhile wait for the
  // release (a press on a row that was replaced before the release would reach no row at all).
  const pressed = useRef(false);
  const held = useRef<{ results: Result[] | null } | undefined>(undefined);
  const show = useCallback((next: Result[] | null) => {
    if (pressed.current) held.current = { results: next };
    else setResults(next);
  }, []);
  useEffect(() => {
    const release = () => {
      if (!pressed.current) return;
      pressed.current = false;
      // After the click this release belongs to has reached its row.
      setTimeout(() => {
        const h = held.current;
        held.current = undefined;
        if (h && !pressed.current) setResults(h.results);
      }, 0);
    };
    window.addEventListener("pointerup", release, true);
    window.addEventListener("pointercancel", release, true);
    return () => {
      window.removeEventListener("pointerup", release, true);
      window.removeEventListener("pointercancel", release, true);
    };
  }, []);

  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) {
      show(null);
      return;
    }
    let cancelled = false;
    const t = setTimeout(async () => {
      const [hits, sessions] = await Promise.all([store.search(q, 30), store.listSessions()]);
      const byID = new Map(sessions.map((s) => [s.id, s]));
      const lower = q.toLowerCase();
      const titleHits: Result[] = sessions
        .filter((s) => s.title.toLowerCase().includes(lower))
        .slice(0, 10)
        .map((s) => ({ sessionID: s.id, messageID: "", partID: "", snippet: "", title: s.title }));
      const contentHits = hits.filter((h) => byID.has(h.sessionID)).map((h) => ({ ...h, title: byID.get(h.sessionID)?.title ?? "" }));
      if (!cancelled) show([...titleHits, ...contentHits]);
    }, 120);
    return () => {
      cancelled = true;
      clearTimeout(t);
    };
  }, [query, store, show]);

  return (
    <div className="search">
      <input type="search" aria-label="Search sessions" placeholder="Search all sessions…" value={query} onChange={(e) => setQuery(e.target.value)} onKeyDown={(e) => e.key === "Escape" && setQuery("")} />
      {results && (
        <section
          className="search-results"
          aria-label="Search results"
          onPointerDown={() => {
            pressed.current = true;
          }}
        >
          {results.length === 0 ? (
            <p className="list-empty">Nothing found.</p>
          ) : (
            <ul>
              {results.map((r) => (
                <li key={`${r.sessionID}:${r.partID}`}>
                  <button
                    type="button"
                    onClick={() => {
                      held.current = undefined;
                      onOpen(r.sessionID, r.messageID || undefined);
                      setQuery("");
                    }}
                  >
                    <span className="session-name">{r.title}</span>
                    {r.snippet && <span className="snippet">{r.snippet}</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
