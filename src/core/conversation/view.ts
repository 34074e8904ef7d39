import type { AssistantMessage, MessageWithParts, Session, UserMessage } from "../schema";
import { activePath, nextPrev } from "./branches";
import { compactedByProvider } from "./provider-compaction";
import { isServerTool } from "./server-tool";

/**
 * The one view of a conversation (what the user sees, what the model is
 * sent, whether the turn is done, where the workspace stands). Every caller —
 * the loop, compaction, prune, revert, fork, exports, the UI — takes it from
 * `conversationView`, so they cannot disagree.
 */

/** Hides messages at or after a soft revert point (spec §4.2). */
export function applyRevert(msgs: MessageWithParts[], revertMessageID: string | undefined): MessageWithParts[] {
  if (!revertMessageID) return msgs;
  return msgs.filter((m) => m.info.id < revertMessageID);
}

/** Whether a summary answer stands: finished without an error (what the model is sent), or also still streaming (what is shown). */
type SummaryState = "finished" | "started";

function summaryStands(m: MessageWithParts, state: SummaryState): boolean {
  const info = m.info;
  return info.role === "assistant" && info.summary === true && !info.error && (state === "started" || info.finish !== undefined);
}

/**
 * The conversation in reading order: a summary that kept a tail of recent turns verbatim ("Summarise up to
 * here", or an automatic summary's kept tail) is read where it stands in the conversation, before the turns it
 * kept, not at the end where its id sorts. Each such compaction request and its summary answers move, oldest
 * first, to just before the tail's first message (when that message is gone, before the next one). A request
 * moves when one of its summary answers is in the given state (a failed attempt beside it moves with it); one
 * with only a failed summary stays where it happened. Returns `msgs` itself when nothing moves. Input
 * chronological (id order).
 */
export function readingOrder(msgs: MessageWithParts[], state: SummaryState): MessageWithParts[] {
  return ordered(msgs, readingMoves(msgs, state));
}

interface ReadingMove {
  request: MessageWithParts;
  answers: MessageWithParts[];
  tailStart: string;
}

/** The compaction requests (with their summary answers) that `readingOrder` moves before their kept tails. */
function readingMoves(msgs: MessageWithParts[], state: SummaryState): ReadingMove[] {
  const moves: ReadingMove[] = [];
  for (const m of msgs) {
    if (m.info.role !== "user") continue;
    const part = m.parts.find((p) => p.type === "compaction");
    const tailStart = part?.type === "compaction" ? part.tail_start_id : undefined;
    if (tailStart === undefined || tailStart >= m.info.id) continue;
    const id = m.info.id;
    const answers = msgs.filter((a) => a.info.role === "assistant" && a.info.parentID === id);
    if (!answers.some((a) => summaryStands(a, state))) continue;
    moves.push({ request: m, answers, tailStart });
  }
  return moves;
}

function movedIDs(moves: readonly ReadingMove[]): Set<string> {
  return new Set(moves.flatMap((x) => [x.request.info.id, ...x.answers.map((a) => a.info.id)]));
}

function ordered(msgs: MessageWithParts[], moves: readonly ReadingMove[]): MessageWithParts[] {
  if (moves.length === 0) return msgs;
  const moved = movedIDs(moves);
  const out = msgs.filter((m) => !moved.has(m.info.id));
  for (const x of moves) {
    let at = out.findIndex((m) => m.info.id === x.tailStart);
    if (at < 0) {
      // The tail's first message is gone: before the message that followed it (the unmoved keep their order).
      let next: string | undefined;
      for (const m of msgs) if (!moved.has(m.info.id) && m.info.id > x.tailStart) { next = m.info.id; break; }
      at = next === undefined ? out.length : out.findIndex((m) => m.info.id === next);
    }
    out.splice(at, 0, x.request, ...x.answers);
  }
  return out;
}

/**
 * The conversation up to a message as it reads, for a fork or a fresh start: the messages of `shown` (id
 * order) before `messageID` in reading order, and it too with `through`, kept in id order. A summary that
 * kept a tail counts where it is read: a fork through a kept turn carries that summary, and one through the
 * summary leaves out the turns it kept (written before it). `filesAfter` is the message the workspace should
 * stand right after: the newest one kept that was not moved (a summary changes no file, and the kept turns
 * that ran before it in time are left out); undefined when there is none.
 */
export function upToAsRead(shown: MessageWithParts[], messageID: string, include: "before" | "through"): { messages: MessageWithParts[]; filesAfter: string | undefined } {
  const moves = readingMoves(shown, "finished");
  const read = ordered(shown, moves);
  const at = read.findIndex((m) => m.info.id === messageID);
  // A message not shown (hidden by a revert): what is shown before it in time.
  const before = at < 0 ? read.filter((m) => (include === "through" ? m.info.id <= messageID : m.info.id < messageID)) : read.slice(0, include === "through" ? at + 1 : at);
  const kept = new Set(before.map((m) => m.info.id));
  const moved = movedIDs(moves);
  const messages = shown.filter((m) => kept.has(m.info.id));
  let filesAfter: string | undefined;
  for (const m of messages) if (!moved.has(m.info.id)) filesAfter = m.info.id;
  return { messages, filesAfter };
}

/**
 * What the model is sent after the last completed summary (spec §3.5): the compaction request, its summary
 * and what follows them in reading order (a kept tail, then everything newer). A compaction by the provider
 * newer than any summary of ours ends the history at the prompt it answered instead. Input chronological.
 */
export function filterCompacted(msgs: MessageWithParts[]): MessageWithParts[] {
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (!m || m.info.role !== "assistant") continue;
    const info = m.info;
    if (compactedByProvider(m)) {
      // The provider ignores what came before the prompt this answer continued.
      const parent = info.parentID;
      let from = i;
      while (from > 0 && (msgs[from - 1]?.info.id ?? "") >= parent) from--;
      return msgs.slice(from);
    }
    if (!summaryStands(m, "finished")) continue;
    const order = readingOrder(msgs, "finished");
    const at = order.findIndex((x) => x.info.id === info.parentID);
    return order.slice(at >= 0 ? at : order.indexOf(m));
  }
  return msgs;
}

export interface Latest {
  lastUser?: MessageWithParts & { info: UserMessage };
  lastAssistant?: MessageWithParts & { info: AssistantMessage };
  lastFinished?: MessageWithParts & { info: AssistantMessage };
}

export function latest(msgs: MessageWithParts[]): Latest {
  const r: Latest = {};
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (!m) continue;
    const info = m.info;
    if (info.role === "user" && !r.lastUser) r.lastUser = { info, parts: m.parts };
    if (info.role === "assistant") {
      if (!r.lastAssistant) r.lastAssistant = { info, parts: m.parts };
      if (!r.lastFinished && info.finish) r.lastFinished = { info, parts: m.parts };
    }
    if (r.lastUser && r.lastAssistant && r.lastFinished) break;
  }
  return r;
}

/**
 * Whether the newest user message is answered (spec §2.2.4): its last answer
 * finished (or failed), and no tool result in it is still unread by the model
 * — whatever finish reason the provider reported (some say `stop` after tool
 * calls, some `tool-calls` after none).
 */
export function isTurnDone(l: Latest): boolean {
  const a = l.lastAssistant;
  if (!a || !l.lastUser) return false;
  if (a.info.parentID !== l.lastUser.info.id) return false;
  if (a.info.error) return true;
  if (!a.info.finish) return false;
  return !hasUnreadToolResult(a.parts);
}

/** Whether an answer called tools of ours whose results the model has not seen (provider-run tools leave nothing to send). */
export function hasUnreadToolResult(parts: MessageWithParts["parts"]): boolean {
  return parts.some((p) => p.type === "tool" && !isServerTool(p));
}

/** The session fields the view depends on. */
export type ViewSession = Pick<Session, "branches" | "revert">;

export interface ConversationView {
  /** The active branch: at each branch point the selected alternative, with its answers (hidden ones included). */
  path: MessageWithParts[];
  /** What the user sees: the path before the soft revert point. */
  shown: MessageWithParts[];
  /** Messages of the path hidden by a soft revert. */
  reverted: number;
  /** What the model is sent: the shown messages from the last completed summary on (chronological, summary first). */
  sent: MessageWithParts[];
  /** The newest user/assistant/finished messages of `sent`. */
  latest: Latest;
  /** Whether the newest user message has its finished answer with no tool result left unread. */
  done: boolean;
  /** The branch point a new prompt continues: the last turn shown. */
  next: string;
  /**
   * The workspace snapshot the shown branch stands at (the state its last step
   * left), or undefined when no step recorded one after the last change.
   */
  snapshot: string | undefined;
}

/** The workspace snapshot a list of messages ends at (see `ConversationView.snapshot`). */
export function snapshotAt(msgs: MessageWithParts[]): string | undefined {
  // The newest part that says where the files stand decides (read from the end: a long session's
  // answer is found in its last step, not after walking every part).
  for (let i = msgs.length - 1; i >= 0; i--) {
    const parts = msgs[i]?.parts ?? [];
    for (let j = parts.length - 1; j >= 0; j--) {
      const p = parts[j];
      if ((p?.type === "step-start" || p?.type === "step-finish") && p.snapshot) return p.snapshot;
      if (p?.type === "snapshot") return p.snapshot;
      // Files changed and the step recorded no state after: unknown until a later step or marker says.
      if (p?.type === "patch") return undefined;
    }
  }
  return undefined;
}

/**
 * The conversation of a session as shown and as sent. `all` is every stored message, in id order; it may be the
 * screen's shared rows (`messagesToRead`): the view's arrays can be `all` itself, so treat them as read-only too.
 */
export function conversationView(session: ViewSession | undefined, all: readonly MessageWithParts[]): ConversationView {
  const path = activePath(all as MessageWithParts[], session?.branches);
  const shown = applyRevert(path, session?.revert?.messageID);
  const sent = filterCompacted(shown);
  const l = latest(sent);
  return {
    path,
    shown,
    reverted: path.length - shown.length,
    sent,
    latest: l,
    done: isTurnDone(l),
    next: nextPrev(shown),
    snapshot: snapshotAt(shown),
  };
}
