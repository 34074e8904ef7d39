import { useLiveQuery } from "dexie-react-hooks";
import { type KeyboardEvent, useState } from "react";
import type { Session } from "../../core/schema";
import { relativeTime } from "../format";
import { useAllStatuses, useServices } from "../hooks/services";
import { ConfirmDialog } from "./confirm-dialog";
import { SearchBox } from "./search-box";
import { PanelToggle } from "./layout/side-panel";
import { MenuButton } from "./menu-button";
import { emit } from "../app-events";
import { SESSIONS_PANEL, useLayout } from "../hooks/layout";

interface Props {
  onSettings: () => void;
  /** The provider is the built-in demo model. */
  demo: boolean;
  onNotify: (text: string, kind: "info", action: { label: string; run: () => void }) => void;
  onImport: (files: File[]) => void;
  onExportAll: () => void;
  currentID: string | undefined;
  onSelect: (id: string, messageID?: string) => void;
  onNew: () => void;
  onDeleted: (id: string) => void;
  onError: (m: string) => void;
}

function SessionItem({ session, current, busy, onSelect, onDelete, onError }: { session: Session; current: boolean; busy: boolean; onSelect: () => void; onDelete: () => void; onError: (m: string) => void }) {
  const { store } = useServices();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(session.title);
  const commit = async () => {
    setEditing(false);
    const title = draft.trim();
    if (!title || title === session.title) return;
    try {
      await store.updateSession(session.id, (s) => ({ ...s, title }));
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    }
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") void commit();
    if (e.key === "Escape") {
      setDraft(session.title);
      setEditing(false);
    }
  };
  const archived = session.time.archived !== undefined;
  const archive = async () => {
    try {
      await store.updateSession(session.id, (s) => ({ ...s, time: { ...s.time, archived: archived ? undefined : Date.now() } }));
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <li className={`session-item${current ? " current" : ""}`}>
      {editing ? (
        <input
          className="rename-input"
          aria-label="Session title"
          value={draft}
          // biome-ignore lint/a11y/noAutofocus: the user asked to rename; focus belongs here
          autoFocus
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKey}
          onBlur={() => void commit()}
        />
      ) : (
        <button type="button" className="session-link" aria-current={current ? "page" : undefined} onClick={onSelect} onDoubleClick={() => setEditing(true)}>
          <span className="session-name">{session.title}</span>
          <span className="session-meta">
            {busy && <span className="busy-dot" role="img" aria-label="running" />}
            {relativeTime(session.time.updated)}
          </span>
        </button>
      )}
      <div className="session-actions">
        <button
          type="button"
          className="icon"
          aria-label={`Rename ${session.title}`}
          title="Rename"
          onClick={() => {
            setDraft(session.title);
            setEditing(true);
          }}
        >
          ✎
        </button>
        <button type="button" className="icon" aria-label={`${archived ? "Unarchive" : "Archive"} ${session.title}`} title={archived ? "Unarchive" : "Archive"} onClick={() => void archive()}>
          {archived ? "⤒" : "⤓"}
        </button>
        <button type="button" className="icon" aria-label={`Delete ${session.title}`} title="Delete" onClick={onDelete}>
          ✕
        </button>
      </div>
    </li>
  );
}

/** The session list: a navigation landmark named "Sessions". */
export function Sidebar({ currentID, onSelect, onNew, onDeleted, onError, onNotify, onImport, onExportAll, onSettings, demo }: Props) {
  const { store, sessions, sandbox } = useServices();
  const layout = useLayout();
  const [showArchived, setShowArchived] = useState(false);
  const list = useLiveQuery(() => store.listSessions({ archived: showArchived }), [store, showArchived]);
  const statuses = useAllStatuses();
  const [confirm, setConfirm] = useState<Session | null>(null);

  const remove = async (s: Session) => {
    setConfirm(null);
    try {
      await sessions.stop(s.id);
      await sessions.assertIdleEverywhere(s.id);
      await store.flush();
      // Kept in memory for a few seconds so the delete can be undone; the files go only after that.
      const kept = { session: (await store.getSession(s.id)) ?? s, messages: await store.messages(s.id) };
      await store.deleteSession(s.id);
      onDeleted(s.id);
      let undone = false;
      setTimeout(() => {
        if (!undone) sandbox.deleteWorkspace(s.id).catch(() => undefined);
      }, 9000);
      onNotify(`Deleted “${s.title}”.`, "info", {
        label: "Undo",
        run: () => {
          undone = true;
          store.importSession(kept.session, kept.messages).catch((e: unknown) => onError(`Could not undo: ${e instanceof Error ? e.message : String(e)}`));
        },
      });
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <nav className="sidebar" aria-label="Sessions">
      <div className="brand">
        <span className="logo" aria-hidden="true">
          ▸_
        </span>
        tabcode
        <span className="brand-actions">
          <button type="button" onClick={onSettings}>
            Settings
          </button>
          <MenuButton
            label="Help"
            buttonLabel="Help"
            items={[
              { label: "Keyboard shortcuts", run: () => emit("help") },
              { label: "Restart the tour", run: () => emit("tour-restart") },
            ]}
          >
            ?
          </MenuButton>
          <PanelToggle label="Sessions" controls={SESSIONS_PANEL.id} panel={layout.sessions} narrow={layout.narrow}>
            «
          </PanelToggle>
        </span>
      </div>
      {demo && (
        <p className="demo-note" title="No provider set: the built-in demo model answers">
          Using the demo model — no key needed. Connect a real one in Settings.
        </p>
      )}
      <button type="button" className="primary new-session" onClick={onNew}>
        New session
      </button>
      <SearchBox onOpen={onSelect} />
      <div className="list-head">
        <span>{showArchived ? "Archived" : "Recent"}</span>
        <button type="button" className="link" onClick={() => setShowArchived(!showArchived)}>
          {showArchived ? "Show active" : "Show archived"}
        </button>
      </div>
      {list && list.length === 0 && <p className="list-empty">{showArchived ? "No archived sessions." : "No sessions yet. Start one with “New session”."}</p>}
      <ul className="session-list">
        {list?.map((s) => (
          <SessionItem key={s.id} session={s} current={s.id === currentID} busy={statuses.has(s.id)} onSelect={() => onSelect(s.id)} onDelete={() => setConfirm(s)} onError={onError} />
        ))}
      </ul>
      <div className="sidebar-footer">
        <label className="button-like">
          Import
          <input
            type="file"
            className="visually-hidden"
            accept=".json,.zip,application/json,application/zip"
            multiple
            onChange={(e) => {
              onImport([...(e.target.files ?? [])]);
              e.target.value = "";
            }}
          />
        </label>
        <button type="button" onClick={onExportAll}>
          Export all
        </button>
      </div>
      {confirm && (
        <ConfirmDialog
          title="Delete this session?"
          body={`“${confirm.title}” and all its messages will be deleted from this browser. This cannot be undone; export it first if you want a copy.`}
          confirmLabel="Delete"
          onConfirm={() => void remove(confirm)}
          onCancel={() => setConfirm(null)}
        />
      )}
    </nav>
  );
}
