/**
 * Rows read from IndexedDB turned into messages with their parts: every row validated (a corrupt one is
 * skipped and logged by `CorruptLog`), parts under their message in id order. At once, or in time slices
 * that give the page its turn (a long session's whole read).
 */
import { Message, type MessageWithParts, Part } from "../../core/schema";
import { slicer } from "./page-slices";
import type { CorruptLog } from "./validate";

export const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Validated messages with their validated parts, in id order. */
export function assembleRows(log: CorruptLog, messageRows: unknown[], partRows: unknown[]): MessageWithParts[] {
  const steps = assembling(log, messageRows, partRows);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** `assembleRows`, yielding to the page every few milliseconds. */
export async function assembleRowsSliced(log: CorruptLog, messageRows: unknown[], partRows: unknown[]): Promise<MessageWithParts[]> {
  const steps = assembling(log, messageRows, partRows);
  const breathe = slicer();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await breathe();
  }
}

/** The validation, pausing (a `yield`) after every 8 rows: a row can take a millisecond to validate (first use of a schema), and the caller decides from the clock whether to give the page a turn. */
function* assembling(log: CorruptLog, messageRows: unknown[], partRows: unknown[]): Generator<void, MessageWithParts[]> {
  const out: MessageWithParts[] = [];
  const byID = new Map<string, MessageWithParts>();
  for (let i = 0; i < messageRows.length; i++) {
    const info = log.parse(Message, "messages", messageRows[i]);
    if (info) {
      const entry: MessageWithParts = { info, parts: [] };
      out.push(entry);
      byID.set(info.id, entry);
    }
    if (i % 8 === 7) yield;
  }
  for (let i = 0; i < partRows.length; i++) {
    const part = log.parse(Part, "parts", partRows[i]);
    if (part) byID.get(part.messageID)?.parts.push(part);
    if (i % 8 === 7) yield;
  }
  for (const m of out) m.parts.sort(byId);
  return out;
}
