import { descendingId } from "../ids";
import { freshBrief } from "../pins/brief";
import { activePins, effectivePins } from "../pins/pins";
import type { Store } from "../ports/store";
import { emptyTokens, type Pin, type Session } from "../schema";
import { conversationView, upToAsRead } from "../conversation/view";
import { turnAfter } from "../compaction/preview";
import { snapshotAfter } from "./revert";

/**
 * "Start fresh from here": a child session (linked by `parentID`, and by
 * `fork` to the message it starts from) with no messages, carrying the
 * parent's pins in force as its own (accepted or still suggested, as they were), and the brief the user
 * edits before sending it. The parent is not touched. `filesAt`: the snapshot
 * the child's files are copied from (as for a fork); undefined: the current files.
 */
export async function startFresh(
  store: Store,
  input: { sessionID: string; messageID: string; now: number },
): Promise<{ session: Session; brief: string; filesAt: string | undefined }> {
  await store.flush();
  const parent = await store.getSession(input.sessionID);
  if (!parent) throw new Error("This session no longer exists.");
  const view = conversationView(parent, await store.messages(parent.id));
  const shown = view.shown;
  if (!shown.some((m) => m.info.id === input.messageID)) throw new Error("That message is not in the conversation shown.");
  // As the conversation reads: from a turn a summary kept, the brief has that summary's decisions.
  // "Here" is the message's whole turn, as for "Summarise up to here": a person's message with its answer.
  const next = turnAfter(shown, input.messageID);
  const end = next ? shown[shown.findIndex((m) => m.info.id === next) - 1]?.info.id : shown.at(-1)?.info.id;
  const { messages: upTo, filesAfter } = upToAsRead(shown, end ?? input.messageID, "through");
  const pins = activePins(effectivePins(parent.pins, upTo));
  const now = input.now;
  const id = descendingId("ses", now);
  // Each pin keeps its standing: a suggestion the user never accepted is still a suggestion in the child.
  const own: Pin[] = pins.map((p, i) => ({ id: `pin_${id.slice(4)}_${i}`, kind: p.kind, text: p.text, state: p.state === "accepted" ? "accepted" : "suggested", time: now }));
  const session: Session = {
    id,
    title: `${parent.title.replace(/ \(fresh\)$/, "")} (fresh)`,
    parentID: parent.id,
    directory: parent.directory,
    version: parent.version,
    time: { created: now, updated: now },
    fork: { sessionID: parent.id, messageID: input.messageID },
    tokens: emptyTokens(),
    cost: 0,
    unpriced: 0,
    ...(own.length ? { pins: own } : {}),
    ...(parent.permission ? { permission: parent.permission } : {}),
    ...(parent.agent !== undefined ? { agent: parent.agent } : {}),
    ...(parent.model ? { model: parent.model } : {}),
    ...(parent.demo ? { demo: true } : {}),
  };
  await store.createSession(session);
  return { session, brief: freshBrief(parent, upTo, input.messageID, pins), filesAt: snapshotAfter(view.path, filesAfter ?? "") };
}
