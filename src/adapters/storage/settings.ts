/**
 * The `settings` table: app settings as key/value rows (API key, base URL,
 * model, theme…). Values are opaque here: whoever reads a key validates it
 * with its own schema. Writes map quota failures to `QuotaError`.
 */
import type { TabcodeDB } from "./db";
import { guardWrite } from "./errors";

/** The stored value of `key`, unvalidated, or `undefined`. */
export async function getSetting(db: TabcodeDB, key: string): Promise<unknown> {
  const row = await db.settings.get(key);
  return row?.value;
}

/** Every setting as a plain object, unvalidated. */
export async function getSettings(db: TabcodeDB): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const row of await db.settings.toArray()) {
    if (typeof row?.key === "string") out[row.key] = row.value;
  }
  return out;
}

/** Stores `value` (structured-cloneable) under `key`. */
export function putSetting(db: TabcodeDB, key: string, value: unknown): Promise<void> {
  return guardWrite(async () => {
    await db.settings.put({ key, value });
  });
}

/** Removes `key`. */
export function deleteSetting(db: TabcodeDB, key: string): Promise<void> {
  return guardWrite(() => db.settings.delete(key));
}
