import type { Store } from "../ports/store";
import type { MessageWithParts } from "../schema";

/**
 * A session's messages for reading only: the store's shared rows where it has them (the session on screen:
 * no copy), else its own read. `Store.messages` of a session on screen is a deep copy the caller may change:
 * ~100 ms of a long session's CPU, spent again by every reader that only looks (the storage line after each
 * run, a preview, the repair on opening).
 */
export async function messagesToRead(store: Pick<Store, "messages" | "sharedMessages">, sessionID: string): Promise<readonly MessageWithParts[]> {
  return (await store.sharedMessages?.(sessionID)) ?? store.messages(sessionID);
}
