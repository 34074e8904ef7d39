/**
 * Storage adapter entry: the Dexie database, the `Store` implementation over
 * it, settings helpers and the page-hide flush hook.
 */
export { openDatabase, type TabcodeDB } from "./db";
export { DexieStore } from "./dexie-store";
export { installFlushOnPageHide } from "./page-hide";
export { getSetting, putSetting } from "./settings";
