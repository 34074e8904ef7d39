/**
 * In-memory buffer of streamed text deltas waiting to be written.
 *
 * Deltas go into the open batch. Closing it queues the batch for one write;
 * batches are written one at a time, oldest first. A batch stays visible
 * (`text()`) until its write commits, so a UI showing stored text plus pending
 * text never misses a token. A failed batch is merged into the next one, so
 * its text is neither lost nor applied out of order.
 */
import type { PartDelta } from "../../core/ports/store";

/** Text waiting for one part. */
export interface PendingText {
  sessionID: string;
  messageID: string;
  partID: string;
  text: string;
}

/** Deltas written together, keyed by part id. */
export type Batch = Map<string, PendingText>;

export class DeltaBuffer {
  private open: Batch = new Map();
  private readonly queued: Batch[] = [];

  /** Adds a delta to the open batch. */
  append(d: PartDelta): void {
    const cur = this.open.get(d.partID);
    if (cur) cur.text += d.delta;
    else this.open.set(d.partID, { sessionID: d.sessionID, messageID: d.messageID, partID: d.partID, text: d.delta });
  }

  /** Whether the open batch has anything. */
  hasOpen(): boolean {
    return this.open.size > 0;
  }

  /** Whether any batch (open or queued) holds text for `partID`. */
  has(partID: string): boolean {
    return this.open.has(partID) || this.queued.some((b) => b.has(partID));
  }

  /** Closes the open batch and queues it; returns it (possibly empty). */
  close(): Batch {
    const batch = this.open;
    this.open = new Map();
    if (batch.size > 0) this.queued.push(batch);
    return batch;
  }

  /** Marks a queued batch as written, or merges it forward when the write failed. */
  settle(batch: Batch, written: boolean): void {
    const i = this.queued.indexOf(batch);
    if (i < 0) return;
    this.queued.splice(i, 1);
    if (written) return;
    const next = this.queued[i] ?? this.open;
    const merged: Batch = new Map();
    for (const [id, p] of batch) merged.set(id, { ...p, text: p.text + (next.get(id)?.text ?? "") });
    for (const [id, p] of next) if (!merged.has(id)) merged.set(id, p);
    next.clear();
    for (const [id, p] of merged) next.set(id, p);
  }

  /** Text not yet committed for `partID`, oldest first; `undefined` when none. */
  text(partID: string): string | undefined {
    let out: string | undefined;
    for (const b of [...this.queued, this.open]) {
      const p = b.get(partID);
      if (p) out = (out ?? "") + p.text;
    }
    return out;
  }

  /** Drops pending text matching `drop` (its part is being deleted); returns the part ids dropped. */
  discard(drop: (p: PendingText) => boolean): string[] {
    const ids: string[] = [];
    for (const b of [...this.queued, this.open]) {
      for (const [id, p] of b) {
        if (!drop(p)) continue;
        b.delete(id);
        ids.push(id);
      }
    }
    return ids;
  }
}
