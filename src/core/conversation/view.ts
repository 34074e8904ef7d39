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

/**
 * The history visible after the last completed summary (spec §3.5).
 * Input and output are chronological.
 */
export function filterCompacted(msgs: MessageWithParts[]): MessageWithParts[] {
  const out: MessageWithParts[] = [];
  let summaryParent: string | undefined;
  let tailStart: string | undefined;
  let tailKept = false;
  /** The prompt answered by the newest message the provider compacted (it ignores what came before). */
  let providerParent: string | undefined;
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (!m) continue;
    out.push(m);
    const info = m.info;
    if (providerParent !== undefined) {
      if (info.id <= providerParent) {
        if (info.id < providerParent) out.pop();
        break;
      }
      continue;
    }
    // The newest boundary wins: a provider compaction newer than any summary of ours.
    if (!summaryParent && tailStart === undefined && compactedByProvider(m) && info.role === "assistant") {
      providerParent = info.parentID;
      continue;
    }
    if (info.role === "assistant" && info.summary && info.finish && !info.error && !summaryParent) summaryParent = info.parentID;
    if (tailStart !== undefined) {
      if (info.id <= tailStart) {
        // Ids sort chronologically: passing below the tail start (its message was deleted) ends the tail too.
        if (info.id < tailStart) out.pop();
        tailKept = true;
        break;
      }
      continue;
    }
    if (summaryParent && info.id === summaryParent) {
      const compaction = m.parts.find((p) => p.type === "compaction");
      if (compaction) {
        if (compaction.tail_start_id && compaction.tail_start_id < info.id) {
          tailStart = compaction.tail_start_id;
          continue;
        }
        break;
      }
    }
  }
  out.reverse();
  if (!tailKept || !summaryParent) return out;
  // Reorder: [compaction-user, summary, …tail…, …newer…]
  const cIdx = out.findIndex((m) => m.info.id === summaryParent);
  const sIdx = out.findIndex((m) => m.info.role === "assistant" && m.info.summary && m.info.parentID === summaryParent);
  const head = [out[cIdx], out[sIdx]].filter((m): m is MessageWithParts => m !== undefined);
  const rest = out.filter((_, i) => i !== cIdx && i !== sIdx);
  return [...head, ...rest];
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
