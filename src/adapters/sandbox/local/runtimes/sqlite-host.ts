/** What the sqlite3 command downloads on first use (sqlite-wasm's .wasm and glue), for the loading line. */
export const SQLITE_DOWNLOAD_MB = 1.3;
