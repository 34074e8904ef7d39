import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from "react";
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
  /** The query the results on screen answer. */
  const shownFor = useRef("");
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
      if (!cancelled) {
        shownFor.current = q;
        show([...titleHits, ...contentHits]);
      }
    }, 120);
    return () => {
      cancelled = true;
      clearTimeout(t);
    };
  }, [query, store, show]);

  const countID = useId();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const open = (r: Result) => {
    held.current = undefined;
    onOpen(r.sessionID, r.messageID || undefined);
    setQuery("");
  };
  const rows = () => [...(list.current?.querySelectorAll<HTMLButtonElement>(":scope > li > button") ?? [])];
  /** ↑ and ↓ move between the results (↑ from the first goes back to the box), Home and End jump, Esc goes back. */
  const onResultKey = (e: KeyboardEvent<HTMLElement>) => {
    const all = rows();
    const at = all.indexOf(e.target as HTMLButtonElement);
    if (at < 0) return;
    const to = e.key === "ArrowDown" ? Math.min(all.length - 1, at + 1) : e.key === "ArrowUp" ? at - 1 : e.key === "Home" ? 0 : e.key === "End" ? all.length - 1 : undefined;
    if (e.key === "Escape") {
      e.preventDefault();
      input.current?.focus();
      return;
    }
    if (to === undefined) return;
    e.preventDefault();
    if (to < 0) input.current?.focus();
    else all[to]?.focus();
  };
  const terms = query.trim().toLowerCase().split(/\s+/).filter((w) => w.length >= 2);
  const count = results === null ? "" : results.length === 0 ? "Nothing found." : `${results.length} result${results.length === 1 ? "" : "s"}. Press Down to go through them, Enter to open the first.`;

  return (
    <div className="search">
      <input
        ref={input}
        type="search"
        aria-label="Search sessions"
        aria-describedby={countID}
        placeholder="Search all sessions…"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setQuery("");
          const first = results?.[0];
          if (e.key === "ArrowDown" && first) {
            e.preventDefault();
            rows()[0]?.focus();
          }
          // Enter opens the first result of what is typed now (not the last query's, still shown for a moment), and
          // never ends an IME composition by opening something.
          if (e.key === "Enter" && first && !e.nativeEvent.isComposing && shownFor.current === query.trim()) {
            e.preventDefault();
            open(first);
          }
        }}
      />
      <p id={countID} className="visually-hidden" role="status">
        {count}
      </p>
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
            <ul ref={list} onKeyDown={onResultKey}>
              {results.map((r) => (
                <li key={`${r.sessionID}:${r.partID}`}>
                  <button type="button" onClick={() => open(r)}>
                    <span className="session-name">
                      <Marked text={r.title} terms={terms} />
                    </span>
                    {r.snippet && (
                      <span className="snippet">
                        <Marked text={r.snippet} terms={terms} />
                      </span>
                    )}
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

/** `text` with the searched words marked (text nodes only: results are never HTML). */
function Marked({ text, terms }: { text: string; terms: readonly string[] }) {
  if (terms.length === 0) return <>{text}</>;
  const pattern = new RegExp(`(${terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "gi");
  const pieces = text.split(pattern);
  // split with one capturing group: odd indexes are the matches (the pieces never move, so their index is their key).
  // biome-ignore lint/suspicious/noArrayIndexKey: see above
  return <>{pieces.map((piece, i) => (i % 2 === 1 ? <mark key={i}>{piece}</mark> : piece))}</>;
}
