/**
 * Storage adapter entry: the Dexie database, the `Store` implementation over
 * it, settings helpers and the page-hide flush hook.
 */
export { createDatabase, DB_NAME, type DatabaseOptions, type OpenDatabaseResult, openDatabase, type TabcodeDB } from "./db";
export { DexieStore, type DexieStoreOptions } from "./dexie-store";
export { isQuotaExceeded, QUOTA_MESSAGE } from "./errors";
export { CURRENT_VERSION, SCHEMA_VERSIONS } from "./migrations";
export { installFlushOnPageHide } from "./page-hide";
export { deleteSetting, getSetting, getSettings, putSetting } from "./settings";
