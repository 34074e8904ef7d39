import { useEffect, useRef, useState } from "react";
import type { HistoryDb } from "../../adapters/import/db-client";
import { type DroppedFile, type HistoryOutcome, type HistoryProgress, importDatabase, importTextFiles, openDatabase, splitDrop } from "../../app/history-import";
import type { DbSessionSummary } from "../../core/import";
import { droppedFiles, pickedFiles } from "../drop-files";
import { useModal } from "../hooks/use-modal";
import { useServices } from "../hooks/services";

type Step =
  | { name: "choose" }
  | { name: "reading"; what: string }
  | { name: "pick"; db: HistoryDb; file: string; selected: Set<string> }
  | { name: "importing"; progress: HistoryProgress }
  | { name: "done"; outcome: HistoryOutcome };

/** Rows the session picker shows before "Show more". */
const PICKER_PAGE = 250;

const folderProps = { webkitdirectory: "", directory: "" } as Record<string, string>;

function fmtDate(ms: number): string {
  return ms ? new Date(ms).toISOString().slice(0, 16).replace("T", " ") : "–";
}

function megabytes(bytes: number): string {
  return (bytes / 1_048_576).toLocaleString("en", { maximumFractionDigits: 1 });
}

function summaryLine(o: HistoryOutcome): string {
  // The Import button's words: an export whose sessions are already here comes in as copies.
  const parts = [`${o.created} imported${o.copied ? ` (${o.copied} as a copy: the original is already here)` : ""}`];
  if (o.updated) parts.push(`${o.updated} updated`);
  if (o.unchanged) parts.push(`${o.unchanged} already here (unchanged)`);
  if (o.kept) parts.push(`${o.kept} continued here kept beside their update`);
  return `${parts.join(", ")}.`;
}

function merge(a: HistoryOutcome | undefined, b: HistoryOutcome): HistoryOutcome {
  if (!a) return b;
  const out: HistoryOutcome = { ...b, created: a.created + b.created, updated: a.updated + b.updated, unchanged: a.unchanged + b.unchanged, kept: a.kept + b.kept, copied: a.copied + b.copied, issues: [...a.issues, ...b.issues], unknown: [...a.unknown, ...b.unknown], notes: [...a.notes, ...b.notes], cancelled: a.cancelled || b.cancelled };
  const first = a.firstID ?? b.firstID;
  if (first) out.firstID = first;
  const error = a.error ?? b.error;
  if (error) out.error = error;
  return out;
}

/** One entry for every history: exports, opencode.db, OpenCode storage folders, Claude Code, Codex, Gemini CLI. */
export function ImportHistoryDialog({ initial, onClose, onOpen }: { initial?: DroppedFile[]; onClose: () => void; onOpen: (sessionID: string) => void }) {
  const ref = useModal();
  const services = useServices();
  const [step, setStep] = useState<Step>({ name: "choose" });
  const [dragging, setDragging] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const texts = useRef<HistoryOutcome | undefined>(undefined);
  const dbRef = useRef<HistoryDb | null>(null);
  const started = useRef(false);

  useEffect(() => () => dbRef.current?.close(), []);

  const start = async (files: DroppedFile[]) => {
    if (files.length === 0) return;
    setStep({ name: "reading", what: files.length === 1 ? (files[0]?.path ?? "") : `${files.length.toLocaleString("en")} files` });
    const { databases, texts: textFiles } = await splitDrop(files);
    let outcome: HistoryOutcome | undefined;
    if (textFiles.length) {
      abort.current = new AbortController();
      outcome = await importTextFiles(services, textFiles, { signal: abort.current.signal, onProgress: (progress) => setStep({ name: "importing", progress }) });
    }
    texts.current = outcome;
    const db = databases[0];
    if (db) {
      setStep({ name: "reading", what: db.wal ? `${db.path} and ${db.wal.path}` : db.path });
      const opened = await openDatabase(db);
      if (!opened.ok) {
        setStep({ name: "done", outcome: merge(outcome, { created: 0, updated: 0, unchanged: 0, kept: 0, copied: 0, issues: [{ at: db.path, problem: opened.error }], unknown: [], cancelled: false, notes: [] }) });
        return;
      }
      dbRef.current = opened.value;
      setStep({ name: "pick", db: opened.value, file: db.path, selected: new Set(opened.value.sessions.map((s) => s.sourceID)) });
      return;
    }
    setStep({ name: "done", outcome: outcome ?? { created: 0, updated: 0, unchanged: 0, kept: 0, copied: 0, issues: [], unknown: files.map((f) => f.path), cancelled: false, notes: [] } });
  };

  useEffect(() => {
    if (initial && !started.current) {
      started.current = true;
      void start(initial);
    }
  });

  // "Import more": back to the first step for another file, in the same dialog. What was read stays imported; the
  // next result counts only the next files. Focus goes to the first picker (the drop zone has no keyboard use).
  const firstPicker = useRef<HTMLInputElement>(null);
  const focusPicker = useRef(false);
  useEffect(() => {
    if (step.name !== "choose" || !focusPicker.current) return;
    focusPicker.current = false;
    firstPicker.current?.focus();
  }, [step]);
  const again = () => {
    dbRef.current?.close();
    dbRef.current = null;
    texts.current = undefined;
    focusPicker.current = true;
    setStep({ name: "choose" });
  };

  const runDb = async (db: HistoryDb, picked: DbSessionSummary[]) => {
    abort.current = new AbortController();
    const outcome = await importDatabase(services, db, picked, { signal: abort.current.signal, onProgress: (progress) => setStep({ name: "importing", progress }) });
    setStep({ name: "done", outcome: merge(texts.current, outcome) });
  };

  return (
    <dialog ref={ref} className="dialog wide import-history" aria-labelledby="import-history-title" onCancel={onClose} onClose={onClose}>
      <h2 id="import-history-title">Import history</h2>
      {step.name === "choose" && (
        // biome-ignore lint/a11y/noStaticElementInteractions: the drop zone is a convenience; the two pickers below are the accessible path
        <div
          className={`drop-zone${dragging ? " active" : ""}`}
          onDragOver={(e) => {
            e.preventDefault();
            e.stopPropagation();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            e.stopPropagation();
            setDragging(false);
            void droppedFiles(e.dataTransfer).then(start);
          }}
        >
          <p>Drop files or folders here: an OpenCode <code>opencode.db</code> or <code>storage</code> folder, Claude Code <code>projects</code> folder or <code>.jsonl</code> transcripts, Codex <code>sessions</code> folder or rollouts, Gemini CLI chats, or tabcode / OpenCode exports. Nothing leaves this browser.</p>
          <div className="drop-actions">
            <label className="button-like">
              Choose files
              <input ref={firstPicker} type="file" className="visually-hidden" multiple accept=".db,.db-wal,.sqlite,.json,.jsonl,.zip" onChange={(e) => void start(pickedFiles(e.target.files))} />
            </label>
            <label className="button-like">
              Choose a folder
              <input type="file" className="visually-hidden" {...folderProps} onChange={(e) => void start(pickedFiles(e.target.files))} />
            </label>
          </div>
        </div>
      )}
      {step.name === "reading" && (
        <p role="status" className="hint">
          Reading {step.what}…
        </p>
      )}
      {step.name === "pick" && <Picker db={step.db} file={step.file} selected={step.selected} onChange={(selected) => setStep({ ...step, selected })} onImport={(picked) => void runDb(step.db, picked)} />}
      {step.name === "importing" && (
        <div className="import-progress">
          {/* While the files are read, the bar follows the bytes read: the number of sessions is not known yet. */}
          {step.progress.reading ? (
            <progress aria-label="Import progress" max={Math.max(1, step.progress.reading.total)} value={step.progress.reading.done} />
          ) : (
            <progress aria-label="Import progress" max={Math.max(1, step.progress.total)} value={step.progress.done} />
          )}
          <p role="status">
            {step.progress.done.toLocaleString("en")} of {step.progress.total.toLocaleString("en")} sessions{step.progress.reading ? " found so far" : ""} ({step.progress.parts.toLocaleString("en")} parts)
            {step.progress.reading ? `; ${megabytes(step.progress.reading.done)} of ${megabytes(step.progress.reading.total)} MB read` : ""}
          </p>
        </div>
      )}
      {step.name === "done" && <Outcome outcome={step.outcome} />}
      <div className="dialog-actions">
        {step.name === "importing" ? (
          <button type="button" onClick={() => abort.current?.abort()}>
            Cancel import
          </button>
        ) : (
          <button type="button" onClick={onClose}>
            Close
          </button>
        )}
        {step.name === "done" && (
          <button type="button" onClick={again}>
            Import more
          </button>
        )}
        {step.name === "done" && step.outcome.firstID && (
          <button type="button" className="primary" onClick={() => step.outcome.firstID && onOpen(step.outcome.firstID)}>
            Open imported session
          </button>
        )}
      </div>
    </dialog>
  );
}

function Picker({ db, file, selected, onChange, onImport }: { db: HistoryDb; file: string; selected: Set<string>; onChange: (s: Set<string>) => void; onImport: (picked: DbSessionSummary[]) => void }) {
  const all = db.sessions.length > 0 && selected.size === db.sessions.length;
  // A history of thousands of sessions lists its first rows; rendering every row at once holds the page.
  const [limit, setLimit] = useState(PICKER_PAGE);
  return (
    <div className="picker">
      <p className="hint">
        {file}: {db.schema}, {db.sessions.length.toLocaleString("en")} sessions (listed in {Math.round(db.ms).toLocaleString("en")} ms).
      </p>
      {db.notes.map((n) => (
        <p key={n} className="hint import-note">
          {n}
        </p>
      ))}
      <label className="select-all">
        <input type="checkbox" checked={all} onChange={() => onChange(all ? new Set() : new Set(db.sessions.map((s) => s.sourceID)))} /> Select all
      </label>
      <div className="picker-table-wrap">
        <table className="picker-table">
          <thead>
            <tr>
              <th scope="col">
                <span className="visually-hidden">Import</span>
              </th>
              <th scope="col">Title</th>
              <th scope="col">Updated</th>
              <th scope="col">Project</th>
              <th scope="col">Size</th>
            </tr>
          </thead>
          <tbody>
            {db.sessions.slice(0, limit).map((s) => (
              <tr key={s.sourceID}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Import “${s.title}”`}
                    checked={selected.has(s.sourceID)}
                    onChange={() => {
                      const next = new Set(selected);
                      if (!next.delete(s.sourceID)) next.add(s.sourceID);
                      onChange(next);
                    }}
                  />
                </td>
                <td>{s.parentID ? `↳ ${s.title}` : s.title}</td>
                <td>{fmtDate(s.updated)}</td>
                <td>{s.project}</td>
                <td>{s.records.toLocaleString("en")} records</td>
              </tr>
            ))}
          </tbody>
        </table>
        {db.sessions.length > limit && (
          <p className="hint">
            Showing {limit.toLocaleString("en")} of {db.sessions.length.toLocaleString("en")} sessions; Select all covers every one.{" "}
            <button type="button" className="link" onClick={() => setLimit(limit + PICKER_PAGE * 2)}>
              Show {Math.min(PICKER_PAGE * 2, db.sessions.length - limit).toLocaleString("en")} more
            </button>
          </p>
        )}
      </div>
      <button type="button" className="primary" disabled={selected.size === 0} onClick={() => onImport(db.sessions.filter((s) => selected.has(s.sourceID)))}>
        Import {selected.size.toLocaleString("en")} session{selected.size === 1 ? "" : "s"}
      </button>
    </div>
  );
}

function Outcome({ outcome }: { outcome: HistoryOutcome }) {
  const shown = outcome.issues.slice(0, 50);
  return (
    <div className="import-outcome">
      <p role="status">
        {outcome.cancelled ? "Import cancelled: " : ""}
        {summaryLine(outcome)}
        {outcome.cancelled ? " Importing the same files again continues where it stopped." : ""}
      </p>
      {outcome.error && <p role="alert">{outcome.error}</p>}
      {outcome.unknown.length > 0 && <p className="hint">Not recognised as a history file and skipped: {outcome.unknown.slice(0, 5).join(", ")}{outcome.unknown.length > 5 ? ` and ${outcome.unknown.length - 5} more` : ""}.</p>}
      {outcome.notes.length > 0 && <p className="hint">{outcome.notes.slice(0, 3).join(" ")}</p>}
      {shown.length > 0 && (
        <details>
          <summary>
            {outcome.issues.length.toLocaleString("en")} record{outcome.issues.length === 1 ? "" : "s"} could not be imported and {outcome.issues.length === 1 ? "was" : "were"} skipped
          </summary>
          <ul className="import-issues">
            {shown.map((i) => (
              <li key={`${i.at}\u0000${i.problem}`}>
                <code>{i.at}</code>: {i.problem}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
