import { useState } from "react";
import { useMedia } from "../hooks/use-media";
import { type DiffRow, type FileDiffRows, type Segment, splitRows } from "./diff-rows";
import "./diff.css";

export type DiffLayout = "unified" | "split";
const LAYOUT_KEY = "tabcode.diffLayout";
/** Below this width side-by-side has no room: the view falls back to unified. */
const TOO_NARROW = "(max-width: 759px)";

function storedLayout(): DiffLayout {
  try {
    return localStorage.getItem(LAYOUT_KEY) === "split" ? "split" : "unified";
  } catch {
    return "unified";
  }
}

/** The layout the user chose (remembered), and whether the screen allows side-by-side. */
function useDiffLayout(): { layout: DiffLayout; chosen: DiffLayout; narrow: boolean; choose(l: DiffLayout): void } {
  const [chosen, setChosen] = useState<DiffLayout>(storedLayout);
  const narrow = useMedia(TOO_NARROW);
  const choose = (l: DiffLayout) => {
    setChosen(l);
    try {
      localStorage.setItem(LAYOUT_KEY, l);
    } catch {
      // Private mode: the choice lasts for this view.
    }
  };
  return { layout: narrow ? "unified" : chosen, chosen, narrow, choose };
}

const SIGN = { add: "+", del: "−", context: " " } as const;
const SAID = { add: "added", del: "removed", context: "" } as const;

function Code({ row }: { row: DiffRow }) {
  if (!row.segments) return <>{row.text}</>;
  return (
    <>
      {row.segments.map((s: Segment, i) =>
        s.changed ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of a static line
          <mark key={i} className="diff-word">
            {s.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of a static line
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

function UnifiedRows({ rows }: { rows: DiffRow[] }) {
  return (
    <>
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows of a static diff
        <tr key={i} className={`diff-${r.kind}`}>
          <td className="diff-no">{r.old ?? ""}</td>
          <td className="diff-no">{r.new ?? ""}</td>
          <td className="diff-sign">
            <span aria-hidden="true">{SIGN[r.kind]}</span>
            {r.kind !== "context" && <span className="visually-hidden">{SAID[r.kind]}</span>}
          </td>
          <td className="diff-code">
            <Code row={r} />
          </td>
        </tr>
      ))}
    </>
  );
}

function Side({ row, side }: { row?: DiffRow; side: "old" | "new" }) {
  if (!row) return <td className="diff-no diff-empty" colSpan={2} />;
  const kind = row.kind === "context" ? "context" : row.kind;
  return (
    <>
      <td className={`diff-no diff-${kind}`}>{side === "old" ? row.old : row.new}</td>
      <td className={`diff-code diff-${kind}`}>
        {row.kind !== "context" && <span className="visually-hidden">{SAID[row.kind]} </span>}
        <Code row={row} />
      </td>
    </>
  );
}

function SplitRowsView({ rows }: { rows: DiffRow[] }) {
  return (
    <>
      {splitRows(rows).map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows of a static diff
        <tr key={i}>
          <Side row={r.left} side="old" />
          <Side row={r.right} side="new" />
        </tr>
      ))}
    </>
  );
}

/**
 * One file's diff: unified or side by side (a toggle, remembered; unified on
 * narrow screens), line numbers, changed words marked. Text only: nothing in
 * the diff is ever rendered as HTML.
 */
export function DiffView({ diff, name, toolbar = true }: { diff: FileDiffRows; name: string; toolbar?: boolean }) {
  const { layout, chosen, narrow, choose } = useDiffLayout();
  return (
    <div className="diff-view">
      {toolbar && (
        <div className="diff-bar">
          <span className="diff-stat">
            <span className="diff-plus">+{diff.additions}</span> <span className="diff-minus">−{diff.deletions}</span>
          </span>
          {/* biome-ignore lint/a11y/useSemanticElements: a pair of toggle buttons, not a form field set */}
          <div role="group" aria-label={`Diff layout of ${name}`} className="diff-layout">
            <button type="button" aria-pressed={chosen === "unified" || narrow} onClick={() => choose("unified")}>
              Unified
            </button>
            <button type="button" aria-pressed={layout === "split"} disabled={narrow} title={narrow ? "Side by side needs a wider screen" : undefined} onClick={() => choose("split")}>
              Side by side
            </button>
          </div>
        </div>
      )}
      {diff.hunks.length === 0 ? (
        <p className="hint">No line changed (only the file's mode, line endings or binary content).</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide diff must be reachable by keyboard to scroll it
        <section className="diff-scroll" tabIndex={0} aria-label={`Diff of ${name}`}>
          <table className={`diff-table diff-${layout}`}>
            <thead className="visually-hidden">
              {layout === "split" ? (
                <tr>
                  <th scope="col">Old line</th>
                  <th scope="col">Before</th>
                  <th scope="col">New line</th>
                  <th scope="col">After</th>
                </tr>
              ) : (
                <tr>
                  <th scope="col">Old line</th>
                  <th scope="col">New line</th>
                  <th scope="col">Change</th>
                  <th scope="col">Code</th>
                </tr>
              )}
            </thead>
            {diff.hunks.map((h) => (
              <tbody key={h.header}>
                <tr className="diff-hunk">
                  <td colSpan={4}>{h.header}</td>
                </tr>
                {layout === "split" ? <SplitRowsView rows={h.rows} /> : <UnifiedRows rows={h.rows} />}
              </tbody>
            ))}
          </table>
        </section>
      )}
    </div>
  );
}
