import { descendingId } from "../ids";
import type { Store } from "../ports/store";
import type { Session } from "../schema";
import { rebaseMessages } from "../export/remap";
import { sessionTotals } from "../export/totals";
import { conversationView, upToAsRead } from "../conversation/view";
import { snapshotAfter } from "./revert";

/** What to fork: the session, the message to cut at, and whether that message is kept. */
export interface ForkInput {
  sessionID: string;
  messageID: string;
  /** `before`: messages strictly before `messageID`; `through`: up to and including it. */
  include: "before" | "through";
}

/** Thrown when the session or message to fork from does not exist (a race with a delete). */
export class ForkSourceError extends Error {
  override readonly name = "ForkSourceError";
}

const FORK_SUFFIX = / \(fork #(\d+)\)$/;

/** `<base title> (fork #n)`, with n one more than any fork of the same base title. */
function forkTitle(title: string, existing: readonly Session[]): string {
  const base = title.replace(FORK_SUFFIX, "");
  let n = 0;
  for (const s of [{ title }, ...existing]) {
    if (!s.title.startsWith(`${base} (fork #`)) continue;
    const m = FORK_SUFFIX.exec(s.title);
    if (m && s.title.slice(0, m.index) === base) n = Math.max(n, Number(m[1]));
  }
  return `${base} (fork #${n + 1})`;
}

/**
 * Forks a session (spec §4.1) into a new root session titled
 * `<title> (fork #n)`: the messages before (or through) `messageID` as the
 * conversation reads (`upToAsRead`: a summary that kept a tail is read before
 * it), in id order, copied with fresh ascending ids; parts re-id'd and re-parented; every
 * assistant's `parentID` remapped to its user message's new id. Messages hidden
 * by a soft revert are not copied. Files, shares, todos and revert state are
 * not copied; totals are recomputed from the copied steps. The source is not
 * touched. Forking through an assistant message keeps its user message, since
 * it comes earlier. `filesAt`: the snapshot the fork's files are copied from
 * (the workspace right after the last message kept, on the branch shown:
 * another branch's later steps never count); undefined: the current files.
 */
export async function forkSession(store: Store, input: ForkInput, now: number): Promise<{ session: Session; filesAt: string | undefined }> {
  await store.flush();
  const source = await store.getSession(input.sessionID);
  if (!source) throw new ForkSourceError(`Session ${input.sessionID} not found`);
  const all = await store.messages(source.id);
  if (!all.some((m) => m.info.id === input.messageID))
    throw new ForkSourceError(`Message ${input.messageID} not found in session ${source.id}`);
  const view = conversationView(source, all);
  const { messages: picked, filesAfter } = upToAsRead(view.shown, input.messageID, input.include);

  const existing = [...(await store.listSessions()), ...(await store.listSessions({ archived: true }))];
  const id = descendingId("ses", now);
  const { messages } = rebaseMessages(picked, id, now);
  const session: Session = {
    id,
    title: forkTitle(source.title, existing),
    directory: source.directory,
    version: source.version,
    time: { created: now, updated: now },
    fork: { sessionID: source.id, messageID: input.messageID },
    ...sessionTotals(messages),
  };
  if (source.permission) session.permission = source.permission;
  if (source.agent !== undefined) session.agent = source.agent;
  if (source.model) session.model = source.model;
  await store.importSession(session, messages);
  return { session, filesAt: snapshotAfter(view.path, filesAfter ?? "") };
}
