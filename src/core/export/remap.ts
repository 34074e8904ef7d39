import { ascendingId } from "../ids";
import type { Message, MessageWithParts, Part } from "../schema";

/** Messages given fresh ids, with the maps from old to new ids. */
export interface Rebased {
  messages: MessageWithParts[];
  /** Old message id → new message id. */
  messageIDs: Map<string, string>;
  /** Old part id → new part id. */
  partIDs: Map<string, string>;
}

/**
 * Copies messages into session `sessionID` with fresh ascending ids, in the
 * given order (so the store's id order is the input order). Parts are re-id'd
 * and re-parented; every reference to a message of the set is remapped: an
 * assistant's `parentID`, a user message's `prev`, a compaction part's
 * `tail_start_id`. References that point outside the set are dropped, except
 * `parentID`, which is required and kept as it was.
 */
export function rebaseMessages(messages: readonly MessageWithParts[], sessionID: string, now: number): Rebased {
  const messageIDs = new Map<string, string>();
  const partIDs = new Map<string, string>();
  for (const m of messages) messageIDs.set(m.info.id, ascendingId("msg", now));
  const out: MessageWithParts[] = [];
  for (const m of messages) {
    const id = messageIDs.get(m.info.id) ?? ascendingId("msg", now);
    const info = remapMessage(m.info, id, sessionID, messageIDs);
    const parts: Part[] = [];
    for (const p of m.parts) {
      const pid = ascendingId("prt", now);
      partIDs.set(p.id, pid);
      parts.push(remapPart(p, pid, id, sessionID, messageIDs));
    }
    out.push({ info, parts });
  }
  return { messages: out, messageIDs, partIDs };
}

function remapMessage(info: Message, id: string, sessionID: string, ids: Map<string, string>): Message {
  if (info.role === "assistant") return { ...info, id, sessionID, parentID: ids.get(info.parentID) ?? info.parentID };
  const { prev, ...rest } = info;
  const mapped = prev === undefined ? undefined : prev === "root" ? prev : ids.get(prev);
  return mapped === undefined ? { ...rest, id, sessionID } : { ...rest, id, sessionID, prev: mapped };
}

function remapPart(p: Part, id: string, messageID: string, sessionID: string, ids: Map<string, string>): Part {
  if (p.type === "compaction") {
    const { tail_start_id, ...rest } = p;
    const tail = tail_start_id === undefined ? undefined : ids.get(tail_start_id);
    return tail === undefined ? { ...rest, id, messageID, sessionID } : { ...rest, id, messageID, sessionID, tail_start_id: tail };
  }
  return { ...p, id, messageID, sessionID };
}
