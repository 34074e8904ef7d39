import type { Oo1DB } from "@sqlite.org/sqlite-wasm";
import type { Row, SqlSource } from "../../core/import";

/** The core's SQL port over an open sqlite-wasm database. */
export function sqlSource(db: Oo1DB): SqlSource {
  return { all: (sql, params) => db.selectObjects(sql, params ? [...params] : undefined) as Row[] };
}
