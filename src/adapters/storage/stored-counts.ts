/**
 * Token counts stored on parts: a cache for the next page load (the loop keeps its own in memory). They are
 * written when the page is idle and nothing was written for a second (no streamed text, no prompt, no part),
 * in slices of their own transactions: the first exact count of a long session covers thousands of parts,
 * and writing them at once held the parts table and the page while the next request was being sent; written
 * between a stream's frames, the slices made some of those frames long; and a prompt sent while they were
 * written waited behind them in IndexedDB's queue (a second send in a 2,000-part session: ~430 ms, traced).
 */
import type { Part } from "../../core/schema";
import type { TabcodeDB } from "./db";
import { guardWrite } from "./errors";
import type { LiveMessages } from "./live-messages";
import { whenPageIdle } from "./page-slices";

/** Parts per transaction (each slice is read, compared and written in tasks of its own: far below 50 ms). */
const COUNT_SLICE = 50;
/** How long nothing must have been written before counts are stored (ms): a stream's frames and a prompt's write come first. */
const COUNT_QUIET_MS = 1_000;

/**
 * Whether two stored values are the same data: objects compared field by field whatever the order their
 * fields were written in (an undefined field counts as absent), arrays item by item. No allocation: it runs
 * for every part whose count is stored.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  return sameFields(a as Record<string, unknown>, b as Record<string, unknown>);
}

/** `sameData` for two objects, leaving out the field `skip`. */
function sameFields(a: Record<string, unknown>, b: Record<string, unknown>, skip?: string): boolean {
  let n = 0;
  for (const k in a) {
    if (k === skip || a[k] === undefined) continue;
    if (!sameData(a[k], b[k])) return false;
    n++;
  }
  for (const k in b) if (k !== skip && b[k] !== undefined) n--;
  return n === 0;
}

/** Whether a stored part is still the part that was counted (its count aside). */
function stillAsCounted(row: Part, counted: Part): boolean {
  return sameFields(row as unknown as Record<string, unknown>, counted as unknown as Record<string, unknown>, "tokenCount");
}

/** The queue of counts waiting to be stored, for one `DexieStore`. */
export class StoredCounts {
  private readonly queue = new Map<string, Part>();
  private readonly waiters: Array<{ resolve(): void; reject(e: unknown): void }> = [];
  private scheduled = false;
  /** When the store last wrote something else (`Date.now()`). */
  private lastWriteAt = 0;

  constructor(
    private readonly db: TabcodeDB,
    private readonly live: LiveMessages,
  ) {}

  /** Something else is being written (streamed text, a prompt, a part): counts wait for the pause after it. */
  active(): void {
    this.lastWriteAt = Date.now();
  }

  /** Resolves once every count queued so far is written (or refused: a part changed since it was counted). */
  save(parts: Part[]): Promise<void> {
    for (const p of parts) this.queue.set(p.id, p);
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      const quietIn = this.lastWriteAt + COUNT_QUIET_MS - Date.now();
      if (quietIn > 0) {
        setTimeout(() => whenPageIdle(run), quietIn);
        return;
      }
      this.scheduled = false;
      void this.writeSlice();
    };
    whenPageIdle(run);
  }

  private async writeSlice(): Promise<void> {
    const slice = [...this.queue.values()].slice(0, COUNT_SLICE);
    for (const p of slice) this.queue.delete(p.id);
    try {
      const fresh = await guardWrite(() =>
        this.db.transaction("rw", this.db.parts, async () => {
          const rows = await this.db.parts.bulkGet(slice.map((p) => p.id));
          // Only parts still as counted: a part that changed meanwhile keeps its newer content.
          const same = slice.filter((p, j) => {
            const row = rows[j];
            return row !== undefined && stillAsCounted(row, p);
          });
          if (same.length) await this.db.parts.bulkPut(same);
          return same;
        }),
      );
      this.live.countsWritten(fresh);
    } catch (e) {
      const waiters = this.waiters.splice(0);
      this.queue.clear();
      for (const w of waiters) w.reject(e);
      return;
    }
    if (this.queue.size > 0) this.schedule();
    else for (const w of this.waiters.splice(0)) w.resolve();
  }
}
