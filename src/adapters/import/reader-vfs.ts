/**
 * A read-only SQLite VFS over a synchronous byte reader: in the Worker the
 * reader slices the dropped `File` with `FileReaderSync`, so a database of
 * several GB is read page by page and never held in memory; in Node tests it
 * reads a file descriptor. Databases are opened `immutable` (no journal, no
 * WAL, no locks): the file is never written. A WAL-mode file (OpenCode's) is
 * read as the rollback-journal file it is on disk; `wal.ts` applies its log.
 */
import type { Oo1DB, Sqlite3 } from "@sqlite.org/sqlite-wasm";

/** Synchronous random access to the bytes of one file. */
export interface ByteReader {
  readonly size: number;
  /** Up to `length` bytes at `offset` (fewer at the end of the file). */
  read(offset: number, length: number): Uint8Array;
}

/**
 * The same bytes with the header's file format versions (offsets 18 and 19)
 * set to 1, "rollback journal": a read-only reader has no shared memory for a
 * WAL index, and SQLite refuses a WAL-mode file without one. What is read is
 * the main file (or the main file with a log applied by `withWal`).
 */
export function asRollbackJournal(reader: ByteReader): ByteReader {
  return {
    size: reader.size,
    read(offset, length) {
      const bytes = reader.read(offset, length);
      if (offset > 19 || offset + bytes.length <= 18) return bytes;
      const copy = bytes.slice();
      for (const at of [18, 19]) if (at >= offset && at < offset + copy.length && copy[at - offset] === 2) copy[at - offset] = 1;
      return copy;
    },
  };
}

const VFS_NAME = "tabcode-reader";
const installed = new WeakMap<Sqlite3, Map<string, ByteReader>>();

function install(sqlite3: Sqlite3): Map<string, ByteReader> {
  const have = installed.get(sqlite3);
  if (have) return have;
  const { capi, wasm } = sqlite3;
  const readers = new Map<string, ByteReader>();
  const open = new Map<number, ByteReader>();
  const vfs = new capi.sqlite3_vfs();
  const io = new capi.sqlite3_io_methods();
  const dflt = new capi.sqlite3_vfs(capi.sqlite3_vfs_find(null));
  vfs.$iVersion = 1;
  vfs.$szOsFile = 16; // sqlite3_file is one pointer (pMethods); padded
  vfs.$mxPathname = 1024;
  vfs.$xRandomness = dflt.$xRandomness ?? null;
  vfs.$xSleep = dflt.$xSleep ?? null;
  vfs.$xCurrentTime = dflt.$xCurrentTime ?? null;
  vfs.$xDlOpen = vfs.$xDlError = vfs.$xDlSym = vfs.$xDlClose = null;
  io.$iVersion = 1;
  // 3.41 drops `StructBinder` after start-up while installVfs still checks against its StructType.
  const api = sqlite3 as unknown as { StructBinder?: { StructType: unknown } };
  if (!api.StructBinder) {
    // Any function whose prototype is the structs' common ancestor passes that `instanceof` check.
    const structType = function structType() {};
    structType.prototype = Object.getPrototypeOf(capi.sqlite3_vfs.prototype);
    api.StructBinder = { StructType: structType };
  }
  const name = (ptr: number): string => wasm.cstrToJs(ptr).replace(/^\/+/, "");
  sqlite3.vfs.installVfs({
    io: {
      struct: io,
      methods: {
        xClose: (pFile: number) => {
          open.delete(pFile);
          return 0;
        },
        xRead: (pFile: number, pDest: number, n: number, offset: number | bigint) => {
          const r = open.get(pFile);
          if (!r) return capi.SQLITE_IOERR_READ;
          try {
            const bytes = r.read(Number(offset), n);
            const heap = wasm.heap8u();
            heap.set(bytes, pDest);
            if (bytes.length < n) {
              heap.fill(0, pDest + bytes.length, pDest + n);
              return capi.SQLITE_IOERR_SHORT_READ;
            }
            return 0;
          } catch {
            return capi.SQLITE_IOERR_READ;
          }
        },
        xWrite: () => capi.SQLITE_READONLY,
        xTruncate: () => capi.SQLITE_READONLY,
        xSync: () => 0,
        xFileSize: (pFile: number, pSize: number) => {
          wasm.poke(pSize, BigInt(open.get(pFile)?.size ?? 0), "i64");
          return 0;
        },
        xLock: () => 0,
        xUnlock: () => 0,
        xCheckReservedLock: (_pFile: number, pOut: number) => {
          wasm.poke(pOut, 0, "i32");
          return 0;
        },
        xFileControl: () => capi.SQLITE_NOTFOUND,
        xSectorSize: () => 4096,
        xDeviceCharacteristics: () => capi.SQLITE_IOCAP_IMMUTABLE,
      },
    },
    vfs: {
      struct: vfs,
      name: VFS_NAME,
      methods: {
        xOpen: (_pVfs: number, zName: number, pFile: number, _flags: number, pOutFlags: number) => {
          const r = zName ? readers.get(name(zName)) : undefined;
          if (!r) return capi.SQLITE_CANTOPEN;
          open.set(pFile, r);
          const file = new capi.sqlite3_file(pFile);
          file.$pMethods = io.pointer;
          if (pOutFlags) wasm.poke(pOutFlags, capi.SQLITE_OPEN_READONLY, "i32");
          return 0;
        },
        xDelete: () => capi.SQLITE_READONLY,
        xAccess: (_pVfs: number, zName: number, _flags: number, pOut: number) => {
          wasm.poke(pOut, readers.has(name(zName)) ? 1 : 0, "i32");
          return 0;
        },
        xFullPathname: (_pVfs: number, zName: number, nOut: number, pOut: number) => {
          const i = wasm.cstrncpy(pOut, zName, nOut);
          return i < nOut ? 0 : capi.SQLITE_CANTOPEN;
        },
        xGetLastError: () => 0,
      },
    },
  });
  installed.set(sqlite3, readers);
  return readers;
}

let counter = 0;

/** Opens a read-only database over `reader`. Close it with the returned `close`. */
export function openReaderDb(sqlite3: Sqlite3, reader: ByteReader): { db: Oo1DB; close: () => void } {
  const readers = install(sqlite3);
  const file = `db-${++counter}.sqlite`;
  readers.set(file, asRollbackJournal(reader));
  let db: Oo1DB;
  try {
    db = new sqlite3.oo1.DB({ filename: `file:${file}?immutable=1`, flags: "r", vfs: VFS_NAME });
    db.exec("PRAGMA temp_store = memory; PRAGMA cache_size = -16000;");
  } catch (e) {
    readers.delete(file);
    throw e;
  }
  return {
    db,
    close: () => {
      db.close();
      readers.delete(file);
    },
  };
}

