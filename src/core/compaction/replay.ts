import { ascendingId } from "../ids";
import type { Store } from "../ports/store";
import type { MessageWithParts, Part, TextPart, UserMessage } from "../schema";
import { isMedia, mediaPlaceholder } from "../conversation/to-model";

/**
 * Overflow replay (spec §3.4 step 2 and 8): when the provider rejected a
 * request as too large, the last real user message is left out of the
 * summary and re-sent after it, with its media replaced by placeholders.
 */

/** A user message the person (or the system on their behalf) wrote, not a compaction request. */
export function isRealUser(m: MessageWithParts): m is MessageWithParts & { info: UserMessage } {
  return m.info.role === "user" && !m.parts.some((p) => p.type === "compaction");
}

/** Whether a message carries anything a person wrote or attached. */
export function hasUserContent(m: MessageWithParts): boolean {
  return isRealUser(m) && m.parts.some((p) => (p.type === "text" && !p.ignored && p.text.trim().length > 0) || p.type === "file");
}

/** Index of the newest real user message in `msgs`, if any. */
export function findReplay(msgs: MessageWithParts[]): number | undefined {
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (m && isRealUser(m)) return i;
  }
  return undefined;
}

/**
 * Re-creates a user message after the summary: new id, same agent, model and
 * system text; parts copied with new ids, media file parts replaced by
 * `[Attached mime: name]` text. Cached token counts are dropped.
 */
export async function recreateUserMessage(store: Store, source: MessageWithParts & { info: UserMessage }, now: number): Promise<MessageWithParts & { info: UserMessage }> {
  const info: UserMessage = { ...source.info, id: ascendingId("msg", now), time: { created: now } };
  delete info.prev;
  const parts: Part[] = [];
  for (const p of source.parts) {
    const ids = { id: ascendingId("prt", now), sessionID: info.sessionID, messageID: info.id };
    if (p.type === "file" && isMedia(p.mime)) {
      const text: TextPart = { ...ids, type: "text", text: mediaPlaceholder(p.mime, p.filename) };
      parts.push(text);
    } else {
      const { tokenCount: _old, ...rest } = p;
      parts.push({ ...rest, ...ids } as Part);
    }
  }
  await store.upsertMessage(info);
  for (const p of parts) await store.upsertPart(p);
  return { info, parts };
}
