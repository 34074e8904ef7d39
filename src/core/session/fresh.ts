import { descendingId } from "../ids";
import { freshBrief } from "../pins/brief";
import { activePins, effectivePins } from "../pins/pins";
import type { Store } from "../ports/store";
import { emptyTokens, type Pin, type Session } from "../schema";
import { conversationView, upToAsRead } from "../conversation/view";

/**
 * "Start fresh from here": a child session (linked by `parentID`, and by
 * `fork` to the message it starts from) with no messages, carrying the
 * parent's pins in force as its own (accepted or still suggested, as they were), and the brief the user
 * edits before sending it. The parent is not touched. `filesAfter`: the message
 * of the parent whose workspace the child's files should be.
 */
export async function startFresh(
  store: Store,
  input: { sessionID: string; messageID: string; now: number },
): Promise<{ session: Session; brief: string; filesAfter: string | undefined }> {
  await store.flush();
  const parent = await store.getSession(input.sessionID);
  if (!parent) throw new Error("This session no longer exists.");
  const shown = conversationView(parent, await store.messages(parent.id)).shown;
  if (!shown.some((m) => m.info.id === input.messageID)) throw new Error("That message is not in the conversation shown.");
  // As the conversation reads: from a turn a summary kept, the brief has that summary's decisions.
  const { messages: upTo, filesAfter } = upToAsRead(shown, input.messageID, "through");
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
    ...(own.length ? { pins: own } : {}),
    ...(parent.permission ? { permission: parent.permission } : {}),
    ...(parent.agent !== undefined ? { agent: parent.agent } : {}),
    ...(parent.model ? { model: parent.model } : {}),
    ...(parent.demo ? { demo: true } : {}),
  };
  await store.createSession(session);
  return { session, brief: freshBrief(parent, upTo, input.messageID, pins), filesAfter };
}
