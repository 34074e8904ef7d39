/**
 * The database exactly as schema version 1 wrote it, for upgrade tests.
 * Frozen: this describes released data, so it never follows later changes of
 * the schema or of `migrations.ts`.
 *
 * v1 layout: sessions `id, parentID`; messages `id, sessionID`; parts
 * `id, messageID`; settings `key`. v1 session rows had no `tokens` / `cost`.
 */
import Dexie from "dexie";
import type { MessageWithParts, Session } from "../../core/schema";
import { conversation, makeSession, stepFinishPart } from "./test-fixtures";

export const V1_LAYOUT = {
  sessions: "id, parentID",
  messages: "id, sessionID",
  parts: "id, messageID",
  settings: "key",
} as const;

/** A session row as v1 stored it. */
export type V1Session = Omit<Session, "tokens" | "cost">;

export interface V1Content {
  sessions: V1Session[];
  /** Per session id, its messages with parts, in order. */
  conversations: Map<string, MessageWithParts[]>;
  settings: { key: string; value: unknown }[];
}

function toV1(s: Session): V1Session {
  const { tokens: _tokens, cost: _cost, ...rest } = s;
  return rest;
}

/** Three sessions (one child, one archived) with conversations and settings. */
export function v1Content(): V1Content {
  const root = makeSession({ title: "root" }, 1_000);
  const child = makeSession({ title: "child", parentID: root.id, time: { created: 2_000, updated: 4_000 } }, 2_000);
  const archived = makeSession({ title: "old", time: { created: 500, updated: 600, archived: 700 } }, 500);
  const conversations = new Map<string, MessageWithParts[]>();
  for (const s of [root, child, archived]) conversations.set(s.id, conversation(s.id));
  // A second step on the root session's answer, so totals must add up.
  const answer = conversations.get(root.id)?.[1];
  if (answer) answer.parts.push(stepFinishPart(answer.info, 0.02, 100, 50));
  // A step on a model with no known price (the field is younger than v1; the backfill counts it all the same).
  const childAnswer = conversations.get(child.id)?.[1];
  if (childAnswer) childAnswer.parts.push({ ...stepFinishPart(childAnswer.info, 0, 30, 5), priceUnknown: true });
  return {
    sessions: [root, child, archived].map(toV1),
    conversations,
    settings: [
      { key: "apiKey", value: "sk-test" },
      { key: "model", value: { providerID: "openai", modelID: "gpt-test" } },
    ],
  };
}

/** Writes `content` into a fresh version-1 database (rows deliberately in reverse order). */
export async function writeV1Database(
  indexedDB: IDBFactory,
  IDBKeyRange: typeof globalThis.IDBKeyRange,
  content: V1Content,
  extraRows: { table: keyof typeof V1_LAYOUT; row: unknown }[] = [],
  name = "tabcode",
): Promise<void> {
  const db = new Dexie(name, { indexedDB, IDBKeyRange });
  db.version(1).stores(V1_LAYOUT);
  await db.open();
  const convos = [...content.conversations.values()].reverse();
  await db.transaction("rw", ["sessions", "messages", "parts", "settings"], async () => {
    await db.table("sessions").bulkPut([...content.sessions].reverse());
    await db.table("messages").bulkPut(convos.flatMap((c) => c.map((m) => m.info)).reverse());
    await db.table("parts").bulkPut(convos.flatMap((c) => c.flatMap((m) => m.parts)).reverse());
    await db.table("settings").bulkPut(content.settings);
    for (const { table, row } of extraRows) await db.table(table).put(row);
  });
  db.close();
}
