import type { Store } from "../ports/store";
import type { Message, Part, Session } from "../schema";

/**
 * Stores a new message with its parts and, when given, its session's update: in one transaction where the
 * store has `addMessage`, else parts first (a reader never sees the message without them), then the
 * message, then the session. Resolves with the session as updated.
 */
export async function addMessage(store: Store, message: Message, parts: Part[], session?: (s: Session) => Session): Promise<Session | undefined> {
  if (store.addMessage) return store.addMessage(message, parts, session);
  for (const p of parts) await store.upsertPart(p);
  await store.upsertMessage(message);
  return session ? store.updateSession(message.sessionID, session) : undefined;
}
