/**
 * The sqlite3 Worker: the same sqlite-wasm build the history importer uses
 * (its .wasm is emitted by the build next to this chunk, on this origin).
 */
import sqlite3InitModule from "@sqlite.org/sqlite-wasm";
import { serveEngine } from "./engine-worker";
import { runSqlite } from "./sqlite-driver";

serveEngine(() => sqlite3InitModule({ print: () => undefined, printErr: () => undefined }), runSqlite);
