/**
 * Reads a database together with its write-ahead log (`opencode.db-wal`):
 * OpenCode runs SQLite in WAL mode, so the newest sessions may live only in
 * the log until SQLite checkpoints it. The log is applied as an overlay over
 * the main file's bytes (the reader stays read-only; nothing is copied): the
 * frames up to the last valid commit win over the main file's pages, and the
 * header is marked as a rollback-journal database so SQLite reads the result
 * as one plain file. Format: https://www.sqlite.org/fileformat2.html#walformat
 */
import { asRollbackJournal, type ByteReader } from "./reader-vfs";

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const MAGIC_LE = 0x377f0682;
const MAGIC_BE = 0x377f0683;

export type WalResult =
  | { ok: true; reader: ByteReader; frames: number; pages: number }
  | { ok: false; error: string };

function checksum(bytes: Uint8Array, bigEndian: boolean, s: [number, number]): [number, number] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let [s0, s1] = s;
  for (let i = 0; i + 8 <= bytes.length; i += 8) {
    s0 = (s0 + view.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Whether a database header says WAL mode (file format read/write versions 2). */
export function isWalMode(header: Uint8Array): boolean {
  return header.length >= 20 && (header[18] === 2 || header[19] === 2);
}

/** Whether the bytes start like a SQLite write-ahead log. */
export function isWalFile(head: Uint8Array): boolean {
  if (head.length < 4) return false;
  const magic = new DataView(head.buffer, head.byteOffset, 4).getUint32(0, false);
  return magic === MAGIC_LE || magic === MAGIC_BE;
}

/**
 * The main file with the committed frames of `wal` applied. A log whose
 * header is damaged is refused with a reason; frames after the last valid
 * commit (a transaction still being written) are ignored, as SQLite does.
 */
export function withWal(main: ByteReader, wal: ByteReader): WalResult {
  const head = wal.read(0, WAL_HEADER);
  if (head.length < WAL_HEADER || !isWalFile(head)) return { ok: false, error: "The -wal file is not a SQLite write-ahead log." };
  const hv = new DataView(head.buffer, head.byteOffset, WAL_HEADER);
  const bigEndian = hv.getUint32(0, false) === MAGIC_BE;
  const pageSize = hv.getUint32(8, false);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return { ok: false, error: "The -wal file's header is damaged (page size)." };
  const salt1 = hv.getUint32(16, false);
  const salt2 = hv.getUint32(20, false);
  let sum = checksum(head.subarray(0, 24), bigEndian, [0, 0]);
  if (sum[0] !== hv.getUint32(24, false) || sum[1] !== hv.getUint32(28, false)) return { ok: false, error: "The -wal file's header is damaged (checksum)." };

  const mainHead = main.read(0, 100);
  if (mainHead.length >= 18) {
    const mainPageSize = new DataView(mainHead.buffer, mainHead.byteOffset, mainHead.length).getUint16(16, false);
    const size = mainPageSize === 1 ? 65536 : mainPageSize;
    if (main.size > 0 && size !== pageSize) return { ok: false, error: "The -wal file does not belong to this database (different page size)." };
  }

  // page number → offset of its newest committed frame's page data
  const committed = new Map<number, number>();
  const pending = new Map<number, number>();
  let dbPages = 0;
  let frames = 0;
  const frameSize = FRAME_HEADER + pageSize;
  for (let off = WAL_HEADER; off + frameSize <= wal.size; off += frameSize) {
    const frame = wal.read(off, frameSize);
    if (frame.length < frameSize) break;
    const fv = new DataView(frame.buffer, frame.byteOffset, FRAME_HEADER);
    if (fv.getUint32(8, false) !== salt1 || fv.getUint32(12, false) !== salt2) break;
    sum = checksum(concat(frame.subarray(0, 8), frame.subarray(FRAME_HEADER)), bigEndian, sum);
    if (sum[0] !== fv.getUint32(16, false) || sum[1] !== fv.getUint32(20, false)) break;
    const page = fv.getUint32(0, false);
    if (page === 0) break;
    pending.set(page, off + FRAME_HEADER);
    const commitSize = fv.getUint32(4, false);
    if (commitSize > 0) {
      for (const [p, at] of pending) committed.set(p, at);
      pending.clear();
      dbPages = commitSize;
      frames = (off - WAL_HEADER) / frameSize + 1;
    }
  }
  if (frames === 0) return { ok: true, reader: asRollbackJournal(main), frames: 0, pages: Math.ceil(main.size / pageSize) };

  const size = dbPages * pageSize;
  const pageAt = (page: number): Uint8Array => {
    const at = committed.get(page);
    return at === undefined ? main.read((page - 1) * pageSize, pageSize) : wal.read(at, pageSize);
  };
  const reader: ByteReader = {
    size,
    read(offset, length) {
      const end = Math.min(size, offset + length);
      if (end <= offset) return new Uint8Array(0);
      const out = new Uint8Array(end - offset);
      for (let pos = offset; pos < end; ) {
        const page = Math.floor(pos / pageSize) + 1;
        const inPage = pos - (page - 1) * pageSize;
        const take = Math.min(pageSize - inPage, end - pos);
        const bytes = pageAt(page);
        out.set(bytes.subarray(inPage, inPage + take), pos - offset);
        pos += take;
      }
      return out;
    },
  };
  return { ok: true, reader: asRollbackJournal(reader), frames, pages: dbPages };
}

/** What to tell the user about a WAL-mode database dropped without its log. */
const WAL_ADVICE =
  "This database is in WAL mode: OpenCode may still keep its newest sessions in opencode.db-wal beside it, and those are not listed. To include them, drop opencode.db together with opencode.db-wal, or quit OpenCode first (or run: sqlite3 opencode.db 'PRAGMA wal_checkpoint(TRUNCATE)') and drop opencode.db again.";

/** The database with its write-ahead log applied when one was dropped with it, and what to say about it. */
export function readWithLog(main: ByteReader, wal: ByteReader | undefined): { reader: ByteReader; notes: string[] } {
  if (!wal) return { reader: main, notes: isWalMode(main.read(0, 100)) ? [WAL_ADVICE] : [] };
  const r = withWal(main, wal);
  if (!r.ok) return { reader: main, notes: [`${r.error} It was not applied: sessions written only to it are not listed.`] };
  return { reader: r.reader, notes: [r.frames > 0 ? `Read together with its -wal file (${r.frames.toLocaleString("en")} pages of recent changes applied).` : "Its -wal file held no finished changes; the database was read as it is."] };
}
