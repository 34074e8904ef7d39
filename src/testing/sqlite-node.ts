/**
 * The same sqlite-wasm build the browser Worker uses, loaded in Node for unit
 * tests and benches: databases are built from SQL text (the fixtures' exact
 * DDL) and read back through the read-only reader VFS over a real file.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Sqlite3 } from "@sqlite.org/sqlite-wasm";
import type { ByteReader } from "../adapters/import/reader-vfs";

let loaded: Promise<Sqlite3> | undefined;

/** sqlite-wasm in Node: its browser build needs `self` and `location`. */
export function nodeSqlite(): Promise<Sqlite3> {
  if (!loaded) {
    const g = globalThis as { self?: unknown; location?: unknown };
    g.self ??= globalThis;
    g.location ??= new URL("http://localhost/index.html");
    const pkg = createRequire(import.meta.url).resolve("@sqlite.org/sqlite-wasm/package.json");
    const wasmBinary = readFileSync(join(dirname(pkg), "sqlite-wasm/jswasm/sqlite3.wasm"));
    loaded = import("@sqlite.org/sqlite-wasm").then((m) => m.default({ wasmBinary, print: () => undefined, printErr: () => undefined }));
  }
  return loaded;
}

/** Builds a database file from SQL text; returns its path. */
export async function sqlToFile(sql: string, name = "opencode.db"): Promise<string> {
  const sqlite3 = await nodeSqlite();
  const db = new sqlite3.oo1.DB(":memory:", "c");
  try {
    db.exec(sql);
    const bytes = sqlite3.capi.sqlite3_js_db_export(db.pointer);
    const path = join(mkdtempSync(join(tmpdir(), "tabcode-db-")), name);
    writeFileSync(path, bytes);
    return path;
  } finally {
    db.close();
  }
}

/** A synchronous reader over a file on disk; `reads` counts the bytes read. */
export function fileReader(path: string): ByteReader & { close: () => void; bytesRead: () => number } {
  const fd = openSync(path, "r");
  const size = statSync(path).size;
  let total = 0;
  return {
    size,
    read(offset, length) {
      const buf = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
      const n = buf.length ? readSync(fd, buf, 0, buf.length, offset) : 0;
      total += n;
      return buf.subarray(0, n);
    },
    close: () => closeSync(fd),
    bytesRead: () => total,
  };
}
