import { useLiveQuery } from "dexie-react-hooks";
import { CONTINUE_ANSWER_PROMPT } from "../../core/session/finish-notice";
import { memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { fork, keepOwnChanges, revert, startFresh, unrevert } from "../../app/session-actions";
import { firstScreenShown, whenIdle } from "../../app/warm-up";
import { glanceShowing } from "../glance/keeper";
import { dismissGlance } from "../glance/dismiss";
import type { MessageWithParts, Session } from "../../core/schema";
import { type BranchTree, branchTree, siblingsIn } from "../../core/conversation/branches";
import { foldedCounts, systemEventKind } from "../../core/conversation/system-event";
import { conversationView, readingOrder } from "../../core/conversation/view";
import { MessageActionsContext, type MessageActions } from "../hooks/message-actions";
import { useServices, useSessionStatus } from "../hooks/services";
import { useMessages } from "../hooks/use-messages";
import { GoalBar as GoalBarView, PinnedPanel as PinnedPanelView, SummaryPreviewDialog, Tour } from "../lazy";
import { Composer as ComposerView } from "./composer";
import { drafts } from "../app-events";
import { answerEnd } from "./turn-steps";
import { revertWords } from "./revert-words";
import { MessageList } from "./message-list";
import { SessionHeader as SessionHeaderView } from "./session-header";
import { TodoPanel as TodoPanelView } from "./todo-panel";
import { UnsavedBanner } from "./unsaved-banner";
import { PendingSummaryBanner } from "./summary-preview";
import type { CompactionPreview } from "../../core/compaction/preview";
import { WorkspacePanel as WorkspacePanelView } from "./workspace/workspace-panel";
import { TerminalSection } from "./terminal/terminal-section";
import { PanelToggle, SidePanel } from "./layout/side-panel";
import { CommandWaitBar, QuietBar, UnansweredBar } from "./run-bars";
import { FILES_PANEL, useLayout } from "../hooks/layout";
import { focusComposer } from "../return-focus";

/*
 * While an answer streams the view renders up to 20 times a second, for the message list. What else it shows
 * takes props that do not change with streamed text (the stored view, the session, the status), so it is memoised
 * and skips those renders: the header (which sizes the next request), the side column (pins, todos and files,
 * each a pass over the whole session) and the composer rendered on every frame before (profiled while streaming
 * into a 2,000-part session: the header alone ~1 ms a frame).
 */
const SessionHeader = memo(SessionHeaderView);
const PinnedPanel = memo(PinnedPanelView);
const TodoPanel = memo(TodoPanelView);
const WorkspacePanel = memo(WorkspacePanelView);
const Composer = memo(ComposerView);
const GoalBar = memo(GoalBarView);

/** Finished tool calls per message object (a message that changes is a new object, so each is counted once). */
const finishedTools = new WeakMap<MessageWithParts, number>();
function finishedToolsOf(m: MessageWithParts): number {
  let n = finishedTools.get(m);
  if (n === undefined) {
    n = 0;
    for (const p of m.parts) if (p.type === "tool" && (p.state.status === "completed" || p.state.status === "error")) n++;
    finishedTools.set(m, n);
  }
  return n;
}

/** Changes whenever a tool finishes or the run ends, so the file tree re-reads the workspace. */
function workspaceVersion(messages: MessageWithParts[], status: string, revertID: string | undefined): number {
  let n = (status === "idle" ? 0 : 1) + (revertID ? 7 : 0);
  for (const m of messages) n += 2 * finishedToolsOf(m);
  return n;
}

/** The user's own question an answer belongs to (skipping system events such as the continue prompt). */
function questionOf(all: MessageWithParts[], assistantID: string): { id: string; text: string } | undefined {
  const i = all.findIndex((m) => m.info.id === assistantID);
  for (let j = i - 1; j >= 0; j--) {
    const m = all[j];
    if (m?.info.role !== "user" || systemEventKind(m)) continue;
    const text = m.parts.map((p) => (p.type === "text" && !p.synthetic && !p.ignored ? p.text : "")).join("");
    if (text) return { id: m.info.id, text };
  }
  return undefined;
}

/** A number that changes with the branch shown (switching branches changes the files). */
function branchKey(next: string): number {
  let h = 0;
  for (let i = 0; i < next.length; i++) h = (h * 31 + next.charCodeAt(i)) % 1_000_003;
  return h * 1000;
}

interface Props {
  sessionID: string;
  focusMessageID?: string;
  onError: (m: string) => void;
  onOpenSession: (id: string) => void;
}

/** One session: header with usage, messages, todo list, files and the composer. */
export function SessionView({ sessionID, focusMessageID, onError, onOpenSession }: Props) {
  const app = useServices();
  const layout = useLayout();
  const { store, sessions } = app;
  const liveSession = useLiveQuery(() => store.getSession(sessionID).then((s) => s ?? null), [store, sessionID]);
  const loaded = useMessages(sessionID);
  // Until the live query's own read answers, the row read with the newest messages (one transaction): the
  // messages do not wait for a second read on opening (20-55 ms of a cold open, measured). Kept once shown, so
  // a live query slower than that row's two seconds never sends the view back to "Loading session…".
  const early = useRef<{ id: string; row: Session } | undefined>(undefined);
  if (liveSession === undefined && loaded && early.current?.id !== sessionID) {
    const row = store.sessionAsRead(sessionID);
    if (row) early.current = { id: sessionID, row };
  }
  const session = liveSession !== undefined ? liveSession : early.current?.id === sessionID ? early.current.row : undefined;
  const all = loaded?.messages;
  const stored = loaded?.stored;
  const status = useSessionStatus(sessionID);
  const busy = status.type !== "idle";
  const revertID = session?.revert?.messageID;
  const branches = session?.branches;
  // The conversation's shape (branch path, revert, what a summary replaced) follows the stored messages, so a
  // long session is not walked again on every streamed frame; the streamed text is laid over the shown ones.
  const view = useMemo(() => (stored ? conversationView({ branches, revert: session?.revert }, stored) : undefined), [stored, branches, session?.revert]);
  const streamed = loaded?.streamed;
  // In reading order: a summary that kept later turns verbatim is read before them, where it stands.
  const storedShown = useMemo(() => (view ? readingOrder(view.shown, "started") : undefined), [view]);
  const messages = useMemo(() => (storedShown && streamed?.size ? storedShown.map((m) => streamed.get(m.info.id) ?? m) : storedShown), [storedShown, streamed]);
  // What a revert hid, counted as a person counts it: their messages (each with its answer), not the answer's
  // steps; a summary written after the reverted turn (a "Summarise up to here" above it) goes with it.
  const hidden = useMemo(() => {
    const gone = view ? view.path.slice(view.shown.length) : [];
    // "undo" on a summary's divider: the revert starts at the summary, and what came after it goes with it.
    const n = { turns: 0, summaries: 0, answers: 0, fromSummary: gone[0] !== undefined && systemEventKind(gone[0]) === "compaction", ids: new Set(gone.map((m) => m.info.id)) };
    for (const m of gone) {
      if (m.info.role === "user") n.turns += systemEventKind(m) === undefined ? 1 : 0;
      else if (m.info.summary !== true) n.answers++;
      else if (!m.info.error) n.summaries++;
    }
    return n;
  }, [view]);
  // The side column (pins suggested from every message, todos, the files' version) follows the conversation in a
  // render of its own, after the messages: on a long session each costs a pass over all of it.
  const side = useDeferredValue(view);
  // Messages a summary replaced are folded away (the model no longer sees them); the user can unfold them.
  const [showReplaced, setShowReplaced] = useState(false);
  // "Summarise up to here": the preview waiting for the user's yes.
  const [upTo, setUpTo] = useState<{ messageID: string; preview: CompactionPreview } | null>(null);
  const sent = useMemo(() => new Set(view?.sent.map((m) => m.info.id)), [view]);
  // What the summaries folded, counted as their previews and dividers count it. Kept stable across streamed
  // frames (by value): the actions below must not change on every frame.
  const folded = useMemo(() => (storedShown ? foldedCounts(storedShown, sent) : undefined), [storedShown, sent]);
  const replacedCount = folded?.total ?? 0;
  const hiddenCount = messages ? messages.filter((m) => !sent.has(m.info.id)).length : 0;
  const compactedKey = JSON.stringify(folded ? [...folded.byRequest] : []);
  const compacted = useMemo(() => new Map<string, number>(JSON.parse(compactedKey) as [string, number][]), [compactedKey]);
  const focusReplaced = focusMessageID !== undefined && messages?.some((m) => m.info.id === focusMessageID) === true && !sent.has(focusMessageID);
  // A link to a message not shown (a search hit): on another branch, or hidden by a revert. Said, not silently ignored.
  const focusElsewhere = useMemo(() => {
    if (focusMessageID === undefined || !view || !stored?.some((m) => m.info.id === focusMessageID)) return undefined;
    if (view.shown.some((m) => m.info.id === focusMessageID)) return undefined;
    return view.path.some((m) => m.info.id === focusMessageID) ? "reverted" : "branch";
  }, [focusMessageID, view, stored]);
  const shown = messages && hiddenCount > 0 && !showReplaced && !focusReplaced ? messages.filter((m) => sent.has(m.info.id)) : messages;

  // The messages are on screen once everything the list waits for is there (see the early return below); the
  // messages alone came 20-55 ms before the session row, and start-up work then ran ahead of the first paint.
  const shownOnce = session !== undefined && view !== undefined && messages !== undefined;
  useEffect(() => {
    if (shownOnce) firstScreenShown();
  }, [shownOnce]);
  // The still picture of this session painted before the app ran (the glance) goes in the frame the session
  // itself is painted in; from then on the screen is kept for the next cold open whenever it settles.
  useLayoutEffect(() => {
    if (shownOnce) dismissGlance(document);
  }, [shownOnce]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `messages` and `session` change what the screen shows: keep it again
  useEffect(() => {
    if (shownOnce) glanceShowing(sessionID, busy);
  }, [shownOnce, sessionID, busy, messages, session]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the session shown is no longer on screen when it changes
  useEffect(() => () => glanceShowing(undefined, false), [sessionID]);

  // An answer a closed tab left unfinished is marked as such; when the page is idle, so it never delays the
  // first paint of the session (it reads the whole session and loads the agent loop). A send repairs first anyway.
  useEffect(() => {
    let open = true;
    whenIdle(() => {
      if (open) sessions.repair(sessionID).catch(() => undefined);
    });
    return () => {
      open = false;
    };
  }, [sessions, sessionID]);

  // Where the keyboard goes after an action removed the control it was on.
  const focusUnrevert = useRef(false);
  const unrevertButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (revertID && focusUnrevert.current) unrevertButton.current?.focus();
    focusUnrevert.current = false;
  }, [revertID]);

  // The actions read the newest messages through a ref, so the context does not change on every streamed
  // frame (that would re-render every message on screen); any stored change re-renders the messages anyway.
  const latest = useRef({ all, messages, revertID, stored });
  latest.current = { all, messages, revertID, stored };
  // The newest message's id, for the few rows that ask (a cut answer's Continue acts on the newest answer only);
  // a store, so a new message does not re-render every row through the actions' context.
  const [newest] = useState(() => newestStore());
  const last = messages?.[messages.length - 1];
  const newestID = last?.info.id;
  useEffect(() => newest.set(newestID), [newest, newestID]);
  const currentMessages = useCallback(() => latest.current.all ?? [], []);
  // The turn tree of the stored messages, built once per stored change: every user message on screen asks
  // for its branch switch while rendering (building it per message cost ~30 ms at 800 messages).
  const tree = useRef<{ of: MessageWithParts[]; tree: BranchTree } | undefined>(undefined);
  const sourceTool = session?.source?.tool;
  const sourceUpdated = session?.source?.updated;
  const actions = useMemo<MessageActions>(
    () => ({
      busy,
      newest,
      fork: (messageID) => {
        // Forking from your own prompt: the fork stops before it and its text waits in the fork's composer.
        const m = latest.current.all?.find((x) => x.info.id === messageID);
        const own = m?.info.role === "user" ? m.parts.map((p) => (p.type === "text" && !p.synthetic && !p.ignored ? p.text : "")).join("") : "";
        // Forking from an answer: through its last step (the header that offers Fork is on its first), by the
        // rule that shows the steps as one answer (past a summary or tabcode's own message in its middle).
        const list = latest.current.messages ?? [];
        const at = list.findIndex((x) => x.info.id === messageID);
        const through = at >= 0 && m?.info.role === "assistant" && !m.info.summary ? (list[answerEnd(list, at)]?.info.id ?? messageID) : messageID;
        fork(app, sessionID, own ? messageID : through, own ? "before" : "through").then(
          (s) => {
            if (own) drafts.set(s.id, own);
            onOpenSession(s.id);
          },
          (e: unknown) => onError(`Could not fork: ${e instanceof Error ? e.message : String(e)}`),
        );
      },
      revert: (messageID) => {
        revert(app, sessionID, messageID).then(
          () => {
            // The reverted message (and the menu it was chosen from) is gone: focus goes to Unrevert.
            focusUnrevert.current = true;
          },
          (e: unknown) => onError(`Could not revert: ${e instanceof Error ? e.message : String(e)}`),
        );
      },
      edit: (messageID, text) => {
        sessions
          .prompt(sessionID, { text, editOf: messageID })
          .catch((e: unknown) => onError(`Could not send the edit: ${e instanceof Error ? e.message : String(e)}`));
      },
      ...(sourceTool !== undefined && sourceUpdated !== undefined ? { importedFrom: { tool: sourceTool, updated: sourceUpdated } } : {}),
      compacted: (messageID) => compacted.get(messageID),
      turnsAfter: (messageID) => (latest.current.messages ?? []).filter((m) => m.info.id > messageID && m.info.role === "user" && systemEventKind(m) === undefined).length,
      regenerate: (messageID) => {
        const q = questionOf(latest.current.messages ?? [], messageID);
        if (!q) {
          onError("Could not find the question this answer belongs to.");
          return;
        }
        sessions
          .prompt(sessionID, { text: q.text, editOf: q.id })
          .catch((e: unknown) => onError(`Could not regenerate: ${e instanceof Error ? e.message : String(e)}`));
        // The button goes away with the answer it was on: the keyboard goes on from the message box (Esc stops).
        focusComposer();
      },
      branch: (messageID) => {
        const of = latest.current.stored;
        if (!of) return undefined;
        if (tree.current?.of !== of) tree.current = { of, tree: branchTree(of) };
        const s = siblingsIn(tree.current.tree, messageID);
        return s.ids.length > 1 ? { index: s.index, count: s.ids.length } : undefined;
      },
      continueAnswer: () => {
        sessions
          .prompt(sessionID, { text: CONTINUE_ANSWER_PROMPT, continueAnswer: true })
          .catch((e: unknown) => onError(`Could not continue: ${e instanceof Error ? e.message : String(e)}`));
      },
      editSummary: (messageID, text) => {
        sessions
          .editSummary(sessionID, messageID, text)
          .catch((e: unknown) => onError(`Could not save the summary: ${e instanceof Error ? e.message : String(e)}`));
      },
      pinMessage: (messageID, text) => {
        const t = text.replace(/\s+/g, " ").trim();
        sessions.addPin(sessionID, { kind: "constraint", text: t.length > 2000 ? `${t.slice(0, 1999)}…` : t, messageID }).then(
          (r) => {
            if (!r.ok) onError(r.error);
          },
          (e: unknown) => onError(`Could not pin: ${e instanceof Error ? e.message : String(e)}`),
        );
      },
      summariseUpTo: (messageID) => {
        sessions.previewCompaction(sessionID, messageID).then(
          (preview) => setUpTo({ messageID, preview }),
          (e: unknown) => onError(`Could not summarise: ${e instanceof Error ? e.message : String(e)}`),
        );
      },
      startFresh: (messageID) => {
        startFresh(app, sessionID, messageID).then(
          ({ session: child, brief }) => {
            // The brief waits in the new session's composer: the user edits it and sends it.
            drafts.set(child.id, brief);
            onOpenSession(child.id);
          },
          (e: unknown) => onError(`Could not start fresh: ${e instanceof Error ? e.message : String(e)}`),
        );
      },
      switchBranch: (messageID, step) => {
        sessions
          .switchBranch(sessionID, messageID, step)
          .catch((e: unknown) => onError(`Could not switch branch: ${e instanceof Error ? e.message : String(e)}`));
      },
    }),
    [app, sessionID, busy, onError, onOpenSession, sessions, compacted, newest, sourceTool, sourceUpdated],
  );

  // Until the deferred render has caught up once, the side column shows the current view.
  const sideView = side ?? view;
  // A pass over the whole session: once per stored change, not once per streamed frame.
  const filesVersion = useMemo(() => (sideView ? workspaceVersion(sideView.shown, status.type, revertID) + branchKey(sideView.next) : 0), [sideView, status.type, revertID]);

  if (session === undefined || messages === undefined || view === undefined || sideView === undefined || all === undefined || stored === undefined)
    return (
      <div className="loading" aria-busy="true">
        Loading session…
      </div>
    );
  if (session === null)
    return (
      <div className="empty-state">
        <h1>Session not found</h1>
        <p>It may have been deleted, or its stored record is damaged. Pick another session on the left or start a new one.</p>
      </div>
    );
  return (
    <MessageActionsContext.Provider value={actions}>
      <div className="session-view">
        <SessionHeader session={session} view={view} allMessages={stored} status={status} onError={onError} />
        <UnsavedBanner sessionID={sessionID} messages={currentMessages} />
        {revertID && (
          <div className="banner revert" role="status">
            <span>
              {revertWords(hidden.turns, hidden.summaries, session?.revert, hidden.answers, hidden.fromSummary)} Sending a new message makes this permanent.
            </span>
            <button
              type="button"
              disabled={busy}
              ref={unrevertButton}
              onClick={() =>
                unrevert(app, sessionID).then(focusComposer, (e: unknown) => onError(`Could not unrevert: ${e instanceof Error ? e.message : String(e)}`))
              }
            >
              Unrevert
            </button>
            {session.revert?.undone?.length ? (
              <button
                type="button"
                disabled={busy}
                onClick={() =>
                  keepOwnChanges(app, sessionID).then(focusComposer, (e: unknown) => onError(`Could not put your changes back: ${e instanceof Error ? e.message : String(e)}`))
                }
              >
                Keep my changes
              </button>
            ) : null}
          </div>
        )}
        {focusElsewhere && (
          <div className="banner revert" role="status">
            <span>
              {focusElsewhere === "reverted"
                ? "The message you opened was reverted: Unrevert shows it again."
                : "The message you opened is on another branch of this conversation."}
            </span>
            {focusElsewhere === "branch" && (
              <button
                type="button"
                disabled={busy || revertID !== undefined}
                onClick={() => sessions.showBranchOf(sessionID, focusMessageID ?? "").catch((e: unknown) => onError(`Could not show that branch: ${e instanceof Error ? e.message : String(e)}`))}
              >
                Show that branch
              </button>
            )}
          </div>
        )}
        <PendingSummaryBanner sessionID={sessionID} />
        {upTo && (
          <SummaryPreviewDialog
            preview={upTo.preview}
            upTo
            onCancel={() => setUpTo(null)}
            onConfirm={() => {
              const at = upTo.messageID;
              setUpTo(null);
              // The ⋯ that opened the dialog (focus goes back to it as the dialog goes) is folded away with the messages.
              setTimeout(focusComposer);
              sessions.compact(sessionID, { upTo: at }).catch((e: unknown) => onError(`Could not summarise: ${e instanceof Error ? e.message : String(e)}`));
            }}
          />
        )}
        {hiddenCount > 0 && (
          <div className="banner replaced" role="note">
            <span>
              {replacedCount > 0 ? `${replacedCount} earlier message${replacedCount === 1 ? " was" : "s were"} summarised` : "An earlier summary was folded into the newest one"}
              <span className="banner-more">: the model sees the summary instead</span>.
            </span>
            {/* On a phone the button reads "Show"/"Hide" (its name stays whole), so the banner keeps to one line. */}
            <button
              type="button"
              onClick={() => setShowReplaced(!showReplaced)}
              aria-expanded={showReplaced || focusReplaced}
              aria-label={`${showReplaced || focusReplaced ? "Hide" : "Show"} what the summary replaced`}
            >
              {showReplaced || focusReplaced ? "Hide" : "Show"}
              <span className="banner-more"> what the summary replaced</span>
            </button>
          </div>
        )}
        <div className="session-body">
          <div className="conversation">
            {messages.length === 0 ? (
              <div className="empty-state small">
                <h2>Start the conversation</h2>
                <p>Describe a task below. The agent streams its answer, calls tools and shows every step here.</p>
              </div>
            ) : (
              <MessageList messages={shown ?? messages} focusMessageID={focusMessageID} />
            )}
            {session.demo && <Tour messages={messages} status={status} />}
          </div>
          <SidePanel
            side="right"
            label="Files and todos"
            id={FILES_PANEL.id}
            panel={layout.files}
            narrow={layout.narrow}
            min={FILES_PANEL.min}
            max={FILES_PANEL.max}
          >
            {layout.narrow && (
              <div className="drawer-head">
                <span className="drawer-title">Files and todos</span>
                <PanelToggle label="Files and todos" controls={FILES_PANEL.id} panel={layout.files} narrow close>
                  »
                </PanelToggle>
              </div>
            )}
            <aside className="side-column" aria-label="Files and todos">
              <PinnedPanel session={session} messages={sideView.shown} onError={onError} />
              <TodoPanel messages={sideView.shown} />
              <WorkspacePanel sessionID={sessionID} version={filesVersion} onError={onError} />
              <TerminalSection sessionID={sessionID} messages={messages} />
            </aside>
          </SidePanel>
        </div>
        <UnansweredBar sessionID={sessionID} last={last} idle={!busy && session.revert === undefined} onError={onError} />
        <QuietBar last={last} waiting={status.type === "busy"} />
        <CommandWaitBar sessionID={sessionID} status={status} />
        {/* A goal set by a reverted message is not in force while the revert stands (sending a message ends it). */}
        {session.goal && !hidden.ids.has(session.goal.messageID) && <GoalBar session={session} busy={busy} onError={onError} />}
        <Composer key={sessionID} session={session} onError={onError} onOpenSession={onOpenSession} />
      </div>
    </MessageActionsContext.Provider>
  );
}

function newestStore(): MessageActions["newest"] {
  let id: string | undefined;
  const listeners = new Set<() => void>();
  return {
    get: () => id,
    set: (next) => {
      if (next === id) return;
      id = next;
      for (const l of listeners) l();
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}
