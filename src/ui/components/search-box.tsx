import { useEffect, useState } from "react";
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

  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) {
      setResults(null);
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
      if (!cancelled) setResults([...titleHits, ...contentHits]);
    }, 120);
    return () => {
      cancelled = true;
      clearTimeout(t);
    };
  }, [query, store]);

  return (
    <div className="search">
      <input type="search" aria-label="Search sessions" placeholder="Search all sessions…" value={query} onChange={(e) => setQuery(e.target.value)} onKeyDown={(e) => e.key === "Escape" && setQuery("")} />
      {results && (
        <section className="search-results" aria-label="Search results">
          {results.length === 0 ? (
            <p className="list-empty">Nothing found.</p>
          ) : (
            <ul>
              {results.map((r) => (
                <li key={`${r.sessionID}:${r.partID}`}>
                  <button
                    type="button"
                    onClick={() => {
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
