/** The few parts of `@sqlite.org/sqlite-wasm` 3.41 that tabcode uses (the package ships no types). */
declare module "@sqlite.org/sqlite-wasm" {
  export type SqlBind = string | number | null | Uint8Array;

  export interface Oo1DB {
    selectObjects(sql: string, bind?: readonly SqlBind[]): Record<string, SqlBind>[];
    exec(sql: string): void;
    close(): void;
    readonly pointer: number;
  }

  export interface Struct {
    readonly pointer: number;
    dispose(): void;
    [member: `$${string}`]: number | null;
  }

  export interface Sqlite3 {
    version: { libVersion: string };
    oo1: {
      DB: new (opts: { filename: string; flags: string; vfs?: string | null } | string, flags?: string) => Oo1DB;
    };
    capi: {
      sqlite3_vfs: new (ptr?: number) => Struct;
      sqlite3_io_methods: new (ptr?: number) => Struct;
      sqlite3_file: new (ptr: number) => Struct & { structInfo?: unknown };
      sqlite3_vfs_find(name: string | null): number;
      sqlite3_deserialize(db: number, schema: string, data: number, size: number, bufSize: number, flags: number): number;
      sqlite3_js_db_export(db: number): Uint8Array;
      SQLITE_OPEN_READONLY: number;
      SQLITE_IOERR_SHORT_READ: number;
      SQLITE_IOERR_READ: number;
      SQLITE_READONLY: number;
      SQLITE_CANTOPEN: number;
      SQLITE_NOTFOUND: number;
      SQLITE_IOCAP_IMMUTABLE: number;
      SQLITE_DESERIALIZE_FREEONCLOSE: number;
      SQLITE_DESERIALIZE_RESIZEABLE: number;
    };
    wasm: {
      heap8u(): Uint8Array;
      poke(ptr: number, value: number | bigint, type: "i32" | "i64" | "double"): void;
      cstrToJs(ptr: number): string;
      cstrncpy(dest: number, src: number, n: number): number;
      allocCString(s: string): number;
      alloc(n: number): number;
      allocFromTypedArray(a: Uint8Array): number;
    };
    vfs: {
      installVfs(opt: { io: { struct: Struct; methods: Record<string, (...args: never[]) => number> }; vfs: { struct: Struct; methods: Record<string, (...args: never[]) => number>; name?: string } }): void;
    };
  }

  export default function sqlite3InitModule(opts?: { wasmBinary?: Uint8Array; print?: (s: string) => void; printErr?: (s: string) => void; locateFile?: (f: string) => string }): Promise<Sqlite3>;
}
