import { useSessionList } from "../hooks/use-session-list";
import { type KeyboardEvent, memo, useDeferredValue, useEffect, useRef, useState } from "react";
import type { Session } from "../../core/schema";
import { type PreparedDelete, prepareDelete, probeDelete } from "../../app/session-actions";
import { relativeTime } from "../format";
import { groupSessions, usePins } from "./session-groups";
import { useAllStatuses, useServices } from "../hooks/services";
import { ConfirmDialog } from "./confirm-dialog";
import { SearchBox } from "./search-box";
import { PanelToggle } from "./layout/side-panel";
import { MenuButton } from "./menu-button";
import { BrandLink } from "./brand-link";
import { ArchiveIcon, CopyIcon, ForkIcon, PinIcon } from "./icons";
import { emit } from "../app-events";
import type { NoticeAction } from "./toasts";
import { SESSIONS_PANEL, useLayout } from "../hooks/layout";

interface Props {
  onSettings: () => void;
  /** The provider is the built-in demo model. */
  demo: boolean;
  onNotify: (text: string, kind: "info", action?: NoticeAction) => void;
  onImport: (files: File[]) => void;
  /** Opens the history import (other agents' histories, folders, opencode.db). */
  onImportHistory: () => void;
  onExportAll: () => void;
  currentID: string | undefined;
  onSelect: (id: string, messageID?: string) => void;
  onNew: () => void;
  onDeleted: (id: string) => void;
  onError: (m: string) => void;
}

/** An archive box (with an arrow out of it for "unarchive"): not a download arrow. */
interface ItemProps {
  session: Session;
  current: boolean;
  busy: boolean;
  pinned: boolean;
  /** Listed under its parent session (1) or deeper; 0 at the top level. */
  depth: number;
  /** The list's one Tab stop (the arrow keys move between sessions; see `listKeys`). */
  tabStop: boolean;
  onSelect: () => void;
  onFocused: () => void;
  onDelete: () => void;
  onPin: () => void;
  onError: (m: string) => void;
}

/**
 * An item re-renders only when what it shows changed: a list query returns fresh objects for every
 * session, and re-rendering hundreds of unchanged items per write (a history import writes chunk
 * by chunk) held the page. The handlers reach the Sidebar's newest props through a ref.
 */
function sameItem(a: ItemProps, b: ItemProps): boolean {
  return (
    a.current === b.current &&
    a.busy === b.busy &&
    a.pinned === b.pinned &&
    a.depth === b.depth &&
    a.tabStop === b.tabStop &&
    JSON.stringify(a.session) === JSON.stringify(b.session)
  );
}

const SessionItem = memo(function SessionItem({ session, current, busy, pinned, depth, tabStop, onSelect, onFocused, onDelete, onPin, onError }: ItemProps) {
  const { sessions } = useServices();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(session.title);
  // Set once Enter, Esc or the blur has ended this rename: moving the keyboard away blurs the field again.
  const ended = useRef(false);
  const commit = async () => {
    if (ended.current) return;
    ended.current = true;
    setEditing(false);
    const title = draft.trim();
    if (!title || title === session.title) return;
    try {
      await sessions.rename(session.id, title);
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    }
  };
  const renameButton = useRef<HTMLButtonElement>(null);
  const startRename = () => {
    ended.current = false;
    setDraft(session.title);
    setEditing(true);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== "Enter" && e.key !== "Escape") return;
    // Esc ends the rename only (not the Sessions drawer around it, on a phone); the keyboard goes back to Rename.
    e.preventDefault();
    if (e.key === "Enter") void commit();
    else {
      ended.current = true;
      setDraft(session.title);
      setEditing(false);
    }
    renameButton.current?.focus();
  };
  const archived = session.time.archived !== undefined;
  const archive = async () => {
    try {
      await sessions.archive(session.id, !archived);
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <li className={`session-item${current ? " current" : ""}${depth > 0 ? " child" : ""}`} style={depth > 0 ? { paddingLeft: `${Math.min(depth, 3) * 14}px` } : undefined}>
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
        <button
          type="button"
          className="session-link"
          tabIndex={tabStop ? 0 : -1}
          aria-current={current ? "page" : undefined}
          aria-describedby={LIST_KEYS_HINT}
          onClick={onSelect}
          onFocus={onFocused}
          onDoubleClick={startRename}
          title={session.title}
        >
          <span className="session-name">
            {pinned && (
              <span className="session-mark" role="img" aria-label="pinned">
                <PinIcon size={12} />
              </span>
            )}
            {session.fork ? (
              <span className="session-mark" role="img" aria-label={session.parentID ? (depth > 0 ? "started fresh from the session above" : "started fresh from another session") : "fork"}>
                <ForkIcon />
              </span>
            ) : session.parentID !== undefined ? (
              <span className="session-mark sub-mark" role="img" aria-label={depth > 0 ? "subagent session of the session above" : "subagent session"}>
                ↳
              </span>
            ) : / \(copy\)$/.test(session.title) ? (
              <span className="session-mark" role="img" aria-label="imported copy">
                <CopyIcon />
              </span>
            ) : null}
            {session.title}
          </span>
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
          tabIndex={-1}
          ref={renameButton}
          aria-label={`Rename ${session.title}`}
          title="Rename"
          onClick={startRename}
        >
          ✎
        </button>
        <button type="button" className="icon" tabIndex={-1} aria-label={`${pinned ? "Unpin" : "Pin"} ${session.title}`} aria-pressed={pinned} title={pinned ? "Unpin" : "Pin to the top"} onClick={onPin}>
          <PinIcon />
        </button>
        <button type="button" className="icon" tabIndex={-1} aria-label={`${archived ? "Unarchive" : "Archive"} ${session.title}`} title={archived ? "Unarchive: back to the list" : "Archive: hide from the list (kept, searchable)"} onClick={() => void archive()}>
          <ArchiveIcon out={archived} />
        </button>
        <button type="button" className="icon" tabIndex={-1} aria-label={`Delete ${session.title}`} title="Delete" onClick={onDelete}>
          ✕
        </button>
      </div>
    </li>
  );
}, sameItem);

/** The id of the hint that tells how the keyboard moves in the list (each session's description). */
const LIST_KEYS_HINT = "session-list-keys";

/**
 * The list is one Tab stop: ↑/↓ (Home/End) move between sessions, → reaches a session's Rename, Pin, Archive
 * and Delete (← and → move among them, ← from the first goes back). Each row was five Tab stops.
 */
function listKeys(e: KeyboardEvent<HTMLDivElement>): void {
  const target = e.target as HTMLElement;
  const item = target.closest(".session-item");
  if (!item || target.tagName === "INPUT" || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const links = [...e.currentTarget.querySelectorAll<HTMLButtonElement>("button.session-link")];
  const row = [...item.querySelectorAll<HTMLButtonElement>("button.session-link, .session-actions button")].filter((b) => b.getClientRects().length > 0);
  const link = item.querySelector<HTMLButtonElement>("button.session-link");
  let next: HTMLButtonElement | undefined | null;
  const at = link ? links.indexOf(link) : -1;
  if (e.key === "ArrowDown") next = links[at + 1];
  else if (e.key === "ArrowUp") next = at > 0 ? links[at - 1] : undefined;
  else if (e.key === "Home") next = links[0];
  else if (e.key === "End") next = links.at(-1);
  else if (e.key === "ArrowRight") next = row[row.indexOf(target as HTMLButtonElement) + 1];
  else if (e.key === "ArrowLeft") {
    const i = row.indexOf(target as HTMLButtonElement);
    next = i > 0 ? row[i - 1] : undefined;
  } else return;
  e.preventDefault();
  next?.focus();
}

/** Sessions a date group shows before "Show more" (rendering thousands at once holds the page). */
const GROUP_PAGE = 100;

/** The session list: a navigation landmark named "Sessions". */
/** A title as a notice quotes it: a long one is cut, so the toast stays a line or two. */
function shortTitle(title: string): string {
  return title.length > 60 ? `${title.slice(0, 57).trimEnd()}…` : title;
}

/**
 * A delete asked about. `undoable`/`why`: what the check made when Delete was pressed found. `plan`: a check made
 * at the answer that found the delete can no longer be undone (storage filled up meanwhile), asked about again.
 */
interface DeleteAsked {
  session: Session;
  undoable: boolean;
  why?: PreparedDelete["why"];
  plan?: PreparedDelete;
}

/** The words of the dialog that asks about a checked delete: undoable for a few seconds, or for good. */
function deleteQuestion(s: Session, plan: Pick<PreparedDelete, "undoable" | "why">): { title: string; body: string; confirmLabel: string } {
  if (plan.undoable)
    return {
      title: "Delete this session?",
      body: `“${s.title}” and all its messages and files will be deleted from this browser. You can undo it for a few seconds right after; export it first if you want to keep a copy.`,
      confirmLabel: "Delete",
    };
  const why = plan.why === "refused" ? "The browser refused to store the note that makes a delete undoable" : "The browser's storage is full";
  return {
    title: `Delete “${shortTitle(s.title)}” for good?`,
    body: `${why}, so this delete cannot be undone: its messages and files will be gone from this browser at once. Export it first if you want to keep a copy.`,
    confirmLabel: "Delete for good",
  };
}

export function Sidebar({ currentID, onSelect, onNew, onDeleted, onError, onNotify, onImport, onImportHistory, onExportAll, onSettings, demo }: Props) {
  const app = useServices();
  const layout = useLayout();
  const [showArchived, setShowArchived] = useState(false);
  // How many sessions each date group shows (GROUP_PAGE until "Show more").
  const [shown, setShown] = useState<Record<string, number>>({});
  const live = useSessionList(showArchived);
  // Rendered as a transition (time-sliced): a history import that adds sessions chunk by chunk never blocks the page on re-rendering a long list.
  const list = useDeferredValue(live);
  const statuses = useAllStatuses();
  const pins = usePins();
  // The delete asked about: checked first (`prepareDelete`), so the one dialog says whether it can be undone.
  const [confirm, setConfirm] = useState<DeleteAsked | null>(null);
  const asking = useRef(false);
  const confirmRef = useRef(confirm);
  confirmRef.current = confirm;
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      // A question closed by the sidebar going away (not by its buttons) calls its delete off too.
      confirmRef.current?.plan?.cancel();
    };
  }, []);
  const [focusID, setFocusID] = useState<string>();
  // The element in the sidebar that last had the keyboard's focus (its delete question's buttons too).
  const navRef = useRef<HTMLElement>(null);
  const lastFocused = useRef<Element | null>(null);
  // Focus left on nothing because what had it went away (a deleted session's row, here or by another tab; the
  // question about it) goes to the list's Tab stop, not to the page's start. Looked at a frame later, and only
  // if focus is still nowhere: the question gives focus back to the button that opened it itself (and the
  // browser may), which wins while that button is there.
  useEffect(() => {
    const had = lastFocused.current;
    if (!had || had.isConnected) return;
    lastFocused.current = null;
    requestAnimationFrame(() => {
      const now = document.activeElement;
      if (!mounted.current || (now && now !== document.body)) return;
      const nav = navRef.current;
      const stop = nav?.querySelector<HTMLElement>('.session-list button.session-link:not([tabindex="-1"])') ?? nav?.querySelector<HTMLElement>("button.new-session");
      stop?.focus({ preventScroll: true });
    });
  });
  // Memoised items call the newest handlers through this, whichever render made their closures.
  const latest = useRef({ onSelect, pins, onError, onNotify });
  latest.current = { onSelect, pins, onError, onNotify };

  const report = (e: unknown) => onError(e instanceof Error ? e.message : String(e));
  /** Deletes a checked session: with Undo in its toast, or for good as the user agreed. */
  const carryOut = async (s: Session, plan: PreparedDelete) => {
    const { undo, finish } = await plan.run();
    onDeleted(s.id);
    if (!undo) return onNotify(`Deleted “${shortTitle(s.title)}” for good.`, "info");
    onNotify(`Deleted “${shortTitle(s.title)}”.`, "info", {
      label: "Undo",
      run: () => {
        undo().then(
          () => latest.current.onSelect(s.id),
          (e: unknown) => onError(`Could not undo: ${e instanceof Error ? e.message : String(e)}`),
        );
      },
      // The files go once the toast has gone: never while Undo can still be pressed.
      expire: finish,
    });
  };

  /**
   * Asks about deleting `s`. The delete is checked first: when the note that keeps it undoable cannot be written
   * (storage full even after making room, or refused), the dialog says the delete is for good, not that it can be undone.
   */
  const ask = async (s: Session) => {
    // A second press while the first is being checked, or with a question open, opens nothing more.
    if (asking.current || confirmRef.current) return;
    asking.current = true;
    try {
      // Checked for the question's words only, changing nothing (`probeDelete`): no note stays while the question
      // is open, however long (it would hold every tab's snapshot collections back, and read as a closed page's
      // after ten minutes), and in a full storage nothing is freed yet (glance pictures, other sessions' terminal
      // logs): the user may still say Cancel. The answer checks again and makes the room.
      const probe = await probeDelete(s);
      if (mounted.current) setConfirm({ session: s, undoable: probe.undoable, why: probe.why });
    } catch (e) {
      report(e);
    } finally {
      asking.current = false;
    }
  };
  /** The user said Delete: checked again and run; asked again first if it can no longer be undone. */
  const answer = async (c: DeleteAsked) => {
    setConfirm(null);
    const plan = c.plan ?? (await prepareDelete(app, c.session));
    if (c.undoable && !plan.undoable) {
      // Storage filled up while the question was open: nothing is deleted before the user agrees to "for good".
      if (mounted.current) setConfirm({ session: c.session, undoable: false, why: plan.why, plan });
      else plan.cancel();
      return;
    }
    await carryOut(c.session, plan);
  };
  // The session asked about left the list: another tab deleted it (the list follows every tab's writes), and its
  // Delete could only fail. The question closes, calling its delete off, and says why. Storage is asked first: a
  // session archived or brought back in another tab only moved to the other list, and its question stays.
  const asked = confirm?.session.id;
  const gone = asked !== undefined && live !== undefined && !live.some((x) => x.id === asked);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `live` asks storage again after each read of the list (a session archived elsewhere, then deleted, is missing from both reads)
  useEffect(() => {
    const c = confirmRef.current;
    if (!gone || !c) return;
    let current = true;
    app.store.getSession(c.session.id).then(
      (row) => {
        if (!current || row || confirmRef.current !== c || !mounted.current) return;
        c.plan?.cancel();
        setConfirm(null);
        latest.current.onNotify(`“${shortTitle(c.session.title)}” was deleted in another tab.`, "info");
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [gone, live, app.store]);
  const grouped = groupSessions(list ?? [], pins.ids);
  // The list's Tab stop: the session the keyboard was last on, else the open one, else the first listed.
  const limitOf = (g: (typeof grouped)[number]) => {
    const at = currentID ? g.sessions.findIndex((s) => s.id === currentID) : -1;
    return Math.max(shown[g.label] ?? GROUP_PAGE, at + 1);
  };
  const listed = grouped.flatMap((g) => g.sessions.slice(0, limitOf(g)));
  const tabStop = [focusID, currentID].find((id) => id !== undefined && listed.some((x) => x.id === id)) ?? listed[0]?.id;
  return (
    <nav
      className="sidebar"
      aria-label="Sessions"
      ref={navRef}
      onFocus={(e) => {
        lastFocused.current = e.target;
      }}
    >
      <div className="brand">
        {/* The start page (the demos, the sample sessions) stays one click away once sessions are open. */}
        <BrandLink />
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
          <PanelToggle label="Sessions" controls={SESSIONS_PANEL.id} panel={layout.sessions} narrow={layout.narrow} close>
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
      <p id={LIST_KEYS_HINT} className="visually-hidden">
        Up and Down arrows move between sessions; Right arrow reaches the session's Rename, Pin, Archive and Delete.
      </p>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the arrow keys of the buttons inside bubble here */}
      <div className="session-list" onKeyDown={listKeys}>
        {grouped.map((g) => {
          // A long group (an imported history holds thousands) shows its first sessions and a button for more.
          const limit = limitOf(g);
          const more = g.sessions.length - limit;
          return (
            <section key={g.label} aria-label={g.label}>
              <h3 className="group-head">{g.label}</h3>
              <ul>
                {g.sessions.slice(0, limit).map((s) => (
                  <SessionItem
                    key={s.id}
                    session={s}
                    current={s.id === currentID}
                    busy={statuses.has(s.id)}
                    pinned={pins.ids.has(s.id)}
                    depth={grouped.depths.get(s.id) ?? 0}
                    tabStop={s.id === tabStop}
                    onSelect={() => latest.current.onSelect(s.id)}
                    onFocused={() => setFocusID(s.id)}
                    onDelete={() => void ask(s)}
                    onPin={() => latest.current.pins.toggle(s.id)}
                    onError={(m) => latest.current.onError(m)}
                  />
                ))}
              </ul>
              {more > 0 && (
                <button type="button" className="link show-more" onClick={() => setShown({ ...shown, [g.label]: limit + GROUP_PAGE * 2 })}>
                  Show {Math.min(more, GROUP_PAGE * 2).toLocaleString()} more of {more.toLocaleString()} ({g.label})
                </button>
              )}
            </section>
          );
        })}
      </div>
      <div className="sidebar-footer">
        <label className="button-like" title="Open a session file: a tabcode or OpenCode export (.json, or a .zip with its files), or another agent's history (Claude Code or Codex .jsonl, a Gemini CLI chat, an opencode.db)">
          Import file
          <input
            type="file"
            className="visually-hidden"
            accept=".json,.jsonl,.zip,.db,.db-wal,.sqlite,application/json,application/zip"
            multiple
            onChange={(e) => {
              onImport([...(e.target.files ?? [])]);
              e.target.value = "";
            }}
          />
        </label>
        <button type="button" onClick={onImportHistory} title="Bring in the sessions of other coding agents on this computer: OpenCode, Claude Code, Codex, Gemini CLI">
          Import history
        </button>
        <button type="button" onClick={onExportAll} title="Download every session's conversation as one .zip, a session file each (a session's own Export can take its files too)">
          Export all
        </button>
      </div>
      {confirm && (
        <ConfirmDialog
          {...deleteQuestion(confirm.session, confirm)}
          onConfirm={() => answer(confirm).catch(report)}
          onCancel={() => {
            confirm.plan?.cancel();
            setConfirm(null);
          }}
        />
      )}
    </nav>
  );
}
