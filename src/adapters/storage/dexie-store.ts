/**
 * `Store` over Dexie (IndexedDB): the browser's persistence for sessions,
 * messages and parts.
 *
 * - Reads validate every row with the core zod schema (`validate.ts`): bad rows
 *   are skipped and reported in `corrupt()`, never thrown.
 * - Multi-table writes (delete, import) run in one transaction, so a failure
 *   leaves what was stored untouched; quota failures become `QuotaError`.
 * - Streamed text deltas are buffered (`delta-buffer.ts`) and written into
 *   their parts at most every `flushDelayMs` (250 ms) and on `flush()`;
 *   `pendingText()` tells what is still waiting. Meanwhile they are journaled
 *   at most every `journalDelayMs` (50 ms, `delta-journal.ts`), so a killed
 *   tab loses about that much; `recoverJournal()` merges what a dead tab left.
 *   (The UI shows live tokens from the core's `part.live` events.)
 */
import Dexie from "dexie";
import { QuotaError } from "../../core/errors";
import type { CorruptRecord, ImportRows, PartDelta, Store } from "../../core/ports/store";
import { Message, type MessageWithParts, type Part, Session } from "../../core/schema";
import type { JournalRow, TabcodeDB } from "./db";
import { type Batch, DeltaBuffer } from "./delta-buffer";
import { appendJournal, deleteBatch, JOURNAL_DELAY_MS, journalOwner, liveOwners, recoverJournal } from "./delta-journal";
import { guardWrite } from "./errors";
import { LiveMessages, SETTLE_WAIT_MS, type MessagesSnapshot } from "./live-messages";
import { slicer } from "./page-slices";
import { StorageFullLog, type UnsavedAnswer } from "./storage-full";
import { StoredCounts } from "./stored-counts";
import { addImportedParts, indexParts, reindexToolInputs, type SearchHit, searchParts } from "./search-index";
import { CorruptLog } from "./validate";

/** Options of `DexieStore`. */
export interface DexieStoreOptions {
  /** Longest time a delta waits in memory before it is written. Default 250 ms. */
  flushDelayMs?: number;
  /** First retry of streamed text refused because storage was full (doubling up to 30 s). */
  quotaRetryMs?: number;
  /** Where warnings go (corrupt rows, failed background writes). Default `console.warn`. */
  warn?: (message: string) => void;
  /** Longest time a delta stays only in memory (then it is journaled). Default `JOURNAL_DELAY_MS`; 0 turns the journal off. */
  journalDelayMs?: number;
  /** This tab's journal owner id (tests); by default a fresh one held by a Web Lock. */
  owner?: string;
  /** Where refused answers are noted (tests); by default one backed by `localStorage`. */
  storageFull?: StorageFullLog;
}

function bySessionOrder(a: Session, b: Session): number {
  const d = b.time.updated - a.time.updated;
  if (d !== 0) return d;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The `Store` port over the tabcode Dexie database, plus live pending text for the UI. */
export class DexieStore implements Store {
  private readonly log: CorruptLog;
  private readonly warn: (message: string) => void;
  private readonly flushDelayMs: number;
  private readonly buffer = new DeltaBuffer();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly quotaRetryMs: number;
  private retryDelay: number;
  /** Tail of the serial queue of delta writes. */
  private tail: Promise<void> = Promise.resolve();
  private readonly journalDelayMs: number;
  private readonly owner: string;
  private journalTimer: ReturnType<typeof setTimeout> | undefined;
  private journalFrame = 0;
  /** Id of the open batch; closed batches keep theirs in `batchIds`. */
  private openBatch = 1;
  private readonly batchIds = new WeakMap<Batch, number>();
  /** Deltas of the open batch not journaled yet. */
  private unjournaled: JournalRow[] = [];
  /** When the journal was last written. */
  private lastJournal = 0;
  /** Batch ids with journal rows (deleted when the batch is merged). */
  private readonly journaled = new Set<number>();
  /** Batches whose merge failed: their text went forward, their journal rows go with the next merge. */
  private carried: number[] = [];
  /** Writes while streaming, for benchmarks: journal appends and merges into parts. */
  readonly writes = { journal: 0, merge: 0 };
  /** Watched sessions in memory, patched by this store's writes (the UI reads these). */
  private readonly live: LiveMessages;
  /** Answers whose streamed text storage refused (kept in memory, retried; noted for after a reload). */
  private readonly full: StorageFullLog;
  /** Token counts waiting to be stored (`saveCounts`). */
  private readonly counts: StoredCounts;

  constructor(
    private readonly db: TabcodeDB,
    options: DexieStoreOptions = {},
  ) {
    this.warn = options.warn ?? ((m) => console.warn(m));
    this.log = new CorruptLog(this.warn);
    this.flushDelayMs = options.flushDelayMs ?? 250;
    this.quotaRetryMs = options.quotaRetryMs ?? 2000;
    this.retryDelay = this.quotaRetryMs;
    this.journalDelayMs = options.journalDelayMs ?? JOURNAL_DELAY_MS;
    this.owner = options.owner ?? journalOwner();
    this.live = new LiveMessages(db, this.log);
    this.counts = new StoredCounts(db, this.live);
    this.full = options.storageFull ?? new StorageFullLog();
  }

  /** Answers with streamed text only in memory because storage is full (the UI offers a download). */
  unsavedAnswers(): UnsavedAnswer[] {
    return this.full.list();
  }

  subscribeUnsaved(listener: () => void): () => void {
    return this.full.subscribe(listener);
  }

  /** Whether this answer's text was refused by a full storage (also before a reload): repair says so. */
  storageWasFull(messageID: string): boolean {
    return this.full.wasFull(messageID);
  }

  /**
   * Watches a session's messages: `listener` runs whenever `messagesSnapshot` changes
   * (a write of this tab or another one). Returns the unsubscribe function.
   */
  watchMessages(sessionID: string, listener: () => void): () => void {
    return this.live.watch(sessionID, listener);
  }

  /** Starts reading a session the UI is about to watch (see `LiveMessages.prefetch`). */
  prefetchMessages(sessionID: string): void {
    this.live.prefetch(sessionID);
  }

  /**
   * Stored token counts reach the watched sessions' parts in place, without a new snapshot (nothing shown
   * changes); views that size the next request from those counts follow this version instead.
   */
  watchCounts(listener: () => void): () => void {
    return this.live.watchCounts(listener);
  }
  countsVersion(): number {
    return this.live.countsVersion;
  }

  /** The session row read with a watched session's newest messages, while fresh (see `LiveMessages.sessionAsRead`). */
  sessionAsRead(sessionID: string): Session | undefined {
    return this.live.sessionAsRead(sessionID);
  }

  /** The watched session's messages (newest first read, then all), or `undefined` before the first read. */
  messagesSnapshot(sessionID: string): MessagesSnapshot | undefined {
    return this.live.snapshot(sessionID);
  }

  /**
   * Storage was full: the text stays pending in memory (and on screen) and is
   * written again on its own once space returns, even if no more text arrives.
   */
  private retryWhenSpaceReturns(): void {
    if (this.retryTimer !== undefined) return;
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, 30_000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.flush().then(
        () => {
          this.retryDelay = this.quotaRetryMs;
        },
        () => undefined,
      );
    }, delay);
  }

  /** Whether streamed text is waiting because storage was full. */
  hasUnsavedText(): boolean {
    return this.retryTimer !== undefined;
  }

  // ── sessions ──────────────────────────────────────────────────────────────

  createSession(session: Session): Promise<void> {
    return guardWrite(async () => {
      await this.db.sessions.add(session);
    });
  }

  /** Newest `time.updated` first. `archived: true` lists only archived sessions, otherwise only active ones. */
  async listSessions(opts: { archived?: boolean } = {}): Promise<Session[]> {
    // A full scan rather than the `time.updated` index: a row whose `time.updated`
    // is missing would be absent from the index and never reported as corrupt.
    const rows = await this.db.sessions.toArray();
    const want = opts.archived === true;
    const out: Session[] = [];
    // Validated in slices: an imported history holds thousands of sessions.
    const breathe = slicer();
    for (const row of rows) {
      const s = this.log.parse(Session, "sessions", row);
      if (s && (s.time.archived !== undefined) === want) out.push(s);
      await breathe();
    }
    return out.sort(bySessionOrder);
  }

  /**
   * Calls `listener` after sessions rows change (this tab's writes and other tabs', through Dexie's
   * change events). Returns the unsubscribe function.
   */
  onSessionsChanged(listener: () => void): () => void {
    const prefix = `idb://${this.db.name}/sessions/`;
    const on = (parts: Record<string, unknown>) => {
      if (Object.keys(parts).some((k) => k.startsWith(prefix))) listener();
    };
    Dexie.on.storagemutated.subscribe(on);
    return () => Dexie.on.storagemutated.unsubscribe(on);
  }

  /** Which of `ids` name a stored session: one read of the keys (no row is parsed). */
  async existingSessionIDs(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return new Set(await this.db.sessions.where(":id").anyOf(ids).primaryKeys());
  }

  async getSession(id: string): Promise<Session | undefined> {
    const row = await this.db.sessions.get(id);
    return row === undefined ? undefined : this.log.parse(Session, "sessions", row);
  }

  /** A write of the session row: the row read with the messages is out of date from before it until after it (a read that overlapped it, too). */
  private writingRow<T>(sessionID: string, write: () => Promise<T>): Promise<T> {
    this.live.sessionRowWritten(sessionID);
    return write().finally(() => this.live.sessionRowWritten(sessionID));
  }

  updateSession(id: string, patch: (s: Session) => Session): Promise<Session | undefined> {
    return this.writingRow(id, () =>
      guardWrite(() =>
        this.db.transaction("rw", this.db.sessions, async () => {
          const row = await this.db.sessions.get(id);
          const current = row === undefined ? undefined : this.log.parse(Session, "sessions", row);
          if (!current) return undefined;
          const next = patch(current);
          await this.db.sessions.put(next);
          return next;
        }),
      ),
    );
  }

  async deleteSession(id: string): Promise<void> {
    this.buffer.discard((p) => p.sessionID === id);
    await guardWrite(() =>
      this.db.transaction("rw", [this.db.sessions, this.db.messages, this.db.parts, this.db.terms], async () => {
        await this.db.terms.where("sessionID").equals(id).delete();
        await this.db.parts.where("sessionID").equals(id).delete();
        await this.messagesOf(id).delete();
        await this.db.sessions.delete(id);
      }),
    );
    this.log.forgetSession(id);
    this.live.sessionsReplaced([id]);
  }

  // ── messages ──────────────────────────────────────────────────────────────

  private messagesOf(sessionID: string) {
    return this.db.messages.where("[sessionID+id]").between([sessionID, Dexie.minKey], [sessionID, Dexie.maxKey]);
  }

  /**
   * A session's messages with their parts, both in id order. Empty when the session row is corrupt.
   * A session on screen is answered from its checked in-memory copy (`LiveMessages.currentCopy`).
   */
  async messages(sessionID: string): Promise<MessageWithParts[]> {
    return (await this.live.currentCopy(sessionID)) ?? this.live.readAll(sessionID);
  }

  /** A session on screen: its checked in-memory snapshot, shared (the screen's own objects; read-only); waits for it to finish loading first. */
  sharedMessages(sessionID: string): Promise<readonly MessageWithParts[] | undefined> {
    return this.live.checkedSnapshot(sessionID, { waitMs: SETTLE_WAIT_MS });
  }

  async messageInfos(sessionID: string): Promise<Message[]> {
    const known = await this.live.currentInfos(sessionID);
    if (known) return known;
    const rows = await this.messagesOf(sessionID).toArray();
    return rows.flatMap((row) => {
      const info = this.log.parse(Message, "messages", row);
      return info ? [info] : [];
    });
  }

  async getMessage(id: string): Promise<Message | undefined> {
    const row = await this.db.messages.get(id);
    return row === undefined ? undefined : this.log.parse(Message, "messages", row);
  }

  upsertMessage(message: Message): Promise<void> {
    this.counts.active();
    return guardWrite(async () => {
      await this.db.messages.put(message);
    }).then(() => this.live.messagesWritten(message.sessionID, [message]));
  }

  async addMessage(message: Message, parts: Part[], session?: (s: Session) => Session): Promise<Session | undefined> {
    this.counts.active();
    const write = () =>
      guardWrite(() =>
        this.db.transaction("rw", [this.db.sessions, this.db.messages, this.db.parts, this.db.terms], async () => {
          await this.db.parts.bulkPut(parts);
          await indexParts(this.db, parts);
          await this.db.messages.put(message);
          if (!session) return undefined;
          const row = await this.db.sessions.get(message.sessionID);
          const current = row === undefined ? undefined : this.log.parse(Session, "sessions", row);
          if (!current) return undefined;
          const next = session(current);
          await this.db.sessions.put(next);
          return next;
        }),
      );
    const updated = await (session ? this.writingRow(message.sessionID, write) : write());
    this.live.messageWritten(message, parts);
    return updated;
  }

  async deleteMessages(sessionID: string, messageIDs: string[]): Promise<void> {
    const ids = new Set(messageIDs);
    this.buffer.discard((p) => p.sessionID === sessionID && ids.has(p.messageID));
    await guardWrite(() =>
      this.db.transaction("rw", [this.db.messages, this.db.parts, this.db.terms], async () => {
        await this.db.terms
          .where("messageID")
          .anyOf([...ids])
          .delete();
        for (const id of ids) {
          await this.db.parts.where("[messageID+id]").between([id, Dexie.minKey], [id, Dexie.maxKey]).delete();
        }
        await this.db.messages.bulkDelete([...ids]);
      }),
    );
    this.live.messagesDeleted(sessionID, [...ids]);
  }

  // ── parts and deltas ──────────────────────────────────────────────────────

  /** Writes a part. Deltas appended before this call are written first, in the same transaction. */
  upsertPart(part: Part): Promise<void> {
    this.counts.active();
    if (!this.buffer.has(part.id)) {
      return guardWrite(() =>
        this.db.transaction("rw", [this.db.parts, this.db.terms], async () => {
          await this.db.parts.put(part);
          await indexParts(this.db, [part]);
        }),
      ).then(() => this.live.partsWritten([part]));
    }
    this.clearTimer();
    const batch = this.closeBatch();
    return this.serial(() => this.writeBatch(batch, part));
  }

  /** Stores token counts of parts (their text is unchanged: no re-indexing); see `stored-counts.ts` for when. */
  saveCounts(parts: Part[]): Promise<void> {
    return this.counts.save(parts);
  }

  appendDelta(delta: PartDelta): void {
    if (delta.delta === "") return;
    this.counts.active();
    this.buffer.append(delta);
    if (this.journalDelayMs > 0) {
      // One row per part and write: consecutive deltas of a part are joined before they are written.
      const last = this.unjournaled[this.unjournaled.length - 1];
      if (last?.partID === delta.partID) last.text += delta.delta;
      else
        this.unjournaled.push({
          owner: this.owner,
          batch: this.openBatch,
          sessionID: delta.sessionID,
          messageID: delta.messageID,
          partID: delta.partID,
          text: delta.delta,
        });
      const wait = this.lastJournal + this.journalDelayMs - Date.now();
      if (wait <= 0) this.writeJournal();
      else {
        this.journalTimer ??= setTimeout(() => {
          this.journalTimer = undefined;
          this.writeJournal();
        }, wait);
        // Or before a frame that starts once it is due renders (a long render would hold the timer back),
        // whichever comes first. Not earlier: a write per frame cost the page more than the text it saves
        // (each is a transaction of its own, ~0.7 ms of the main thread on a 2-core machine).
        if (!this.journalFrame && typeof requestAnimationFrame === "function") this.journalFrame = requestAnimationFrame(this.journalDue);
      }
    }
    if (this.timer === undefined) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.flush().catch((e: unknown) => {
          this.warn(`tabcode: could not save streamed text: ${e instanceof Error ? e.message : String(e)}`);
        });
      }, this.flushDelayMs);
    }
  }

  flush(): Promise<void> {
    this.clearTimer();
    const batch = this.closeBatch();
    return this.serial(() => this.writeBatch(batch));
  }

  /** Merges streamed text that a tab killed mid-stream left in the journal (call once at start-up). */
  async recoverJournal(): Promise<number> {
    // Almost always empty: one read of the journal's size, instead of asking the Web Locks for the live
    // tabs and a write transaction over the parts, keeps this off the path of every page load.
    if ((await this.db.deltas.count()) === 0) return 0;
    const n = await recoverJournal(this.db, await liveOwners(this.owner));
    if (n > 0) this.live.everythingChanged();
    return n;
  }

  /** Closes the open batch: its deltas not journaled yet go straight into the merge. */
  private closeBatch(): Batch {
    const batch = this.buffer.close();
    this.batchIds.set(batch, this.openBatch);
    this.openBatch++;
    this.unjournaled = [];
    if (this.journalTimer !== undefined) {
      clearTimeout(this.journalTimer);
      this.journalTimer = undefined;
    }
    return batch;
  }

  /** The frame callback of `appendDelta`: writes the journal if it is due, else asks again for the next frame. */
  private readonly journalDue = (): void => {
    this.journalFrame = 0;
    if (this.unjournaled.length === 0) return;
    if (Date.now() >= this.lastJournal + this.journalDelayMs) this.writeJournal();
    else this.journalFrame = requestAnimationFrame(this.journalDue);
  };

  /** Appends the open batch's new deltas to the journal now (one small write, nothing read). */
  private writeJournal(): void {
    if (this.journalTimer !== undefined) {
      clearTimeout(this.journalTimer);
      this.journalTimer = undefined;
    }
    const rows = this.unjournaled;
    this.unjournaled = [];
    if (rows.length === 0) return;
    this.lastJournal = Date.now();
    this.journaled.add(this.openBatch);
    this.writes.journal++;
    appendJournal(this.db, rows, (e) => this.warn(`tabcode: could not journal streamed text: ${e instanceof Error ? e.message : String(e)}`));
  }

  /** Text appended to `partID` and not yet committed, or `undefined`. Render it after the stored text. */
  pendingText(partID: string): string | undefined {
    return this.buffer.text(partID);
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private serial(task: () => Promise<void>): Promise<void> {
    const run = this.tail.then(task);
    this.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Appends a batch's text to the stored parts, then writes `part`, in one transaction. */
  private async writeBatch(batch: Batch, part?: Part): Promise<void> {
    const id = this.batchIds.get(batch) ?? 0;
    const drop = [...this.carried, ...(this.journaled.has(id) ? [id] : [])];
    if (batch.size === 0 && !part && drop.length === 0) return;
    try {
      await guardWrite(() =>
        this.db.transaction("rw", [this.db.parts, this.db.terms, this.db.deltas], async () => {
          // The batch's journal rows go with the merge: never both in the part and in the journal.
          for (const b of drop) await deleteBatch(this.db, this.owner, b);
          const pending = [...batch.values()];
          const rows = await this.db.parts.bulkGet(pending.map((p) => p.partID));
          const updated: Part[] = [];
          pending.forEach((p, i) => {
            const row = rows[i];
            if (row && (row.type === "text" || row.type === "reasoning") && typeof row.text === "string") {
              updated.push({ ...row, text: row.text + p.text });
            } else {
              this.warn(`tabcode: dropped streamed text for part ${p.partID}: no text part with that id is stored`);
            }
          });
          if (updated.length > 0) await this.db.parts.bulkPut(updated);
          if (part) await this.db.parts.put(part);
          const written = part ? [...updated.filter((u) => u.id !== part.id), part] : updated;
          await indexParts(this.db, written);
          return written;
        }),
      ).then((written) => this.live.partsWritten(written));
      this.journaled.delete(id);
      this.carried = this.carried.filter((b) => !drop.includes(b));
      if (batch.size > 0) this.writes.merge++;
      this.buffer.settle(batch, true);
      if (batch.size > 0) this.full.saved();
    } catch (e) {
      // The text moves forward to a later batch; its journal rows are deleted with that batch's merge.
      if (this.journaled.delete(id)) this.carried.push(id);
      this.buffer.settle(batch, false);
      if (e instanceof QuotaError) {
        this.full.refused(this.waiting(batch));
        this.retryWhenSpaceReturns();
      }
      throw e;
    }
  }

  /** The answers a refused batch leaves waiting, with all of their text still in memory. */
  private waiting(batch: Batch): UnsavedAnswer[] {
    const byMessage = new Map<string, UnsavedAnswer>();
    for (const p of batch.values()) {
      const cur = byMessage.get(p.messageID) ?? { sessionID: p.sessionID, messageID: p.messageID, chars: 0 };
      cur.chars += this.buffer.text(p.partID)?.length ?? p.text.length;
      byMessage.set(p.messageID, cur);
    }
    return [...byMessage.values()];
  }

  importSession(session: Session, messages: MessageWithParts[]): Promise<void> {
    return guardWrite(() =>
      this.db.transaction("rw", [this.db.sessions, this.db.messages, this.db.parts, this.db.terms], async () => {
        const parts = messages.flatMap((m) => m.parts);
        await this.db.sessions.put(session);
        await this.db.messages.bulkPut(messages.map((m) => m.info));
        await this.db.parts.bulkPut(parts);
        await indexParts(this.db, parts);
      }),
    ).then(() => this.live.sessionsReplaced([session.id]));
  }

  /**
   * Writes several sessions all-or-nothing: `bulkAdd` never overwrites, so any
   * existing session, message or part id aborts the whole transaction. Parts
   * go in batches with their search blocks (see `search-index.ts`), so a big
   * chunk never holds the page's thread for long.
   */
  importSessions(rows: ImportRows[]): Promise<void> {
    return guardWrite(() =>
      this.db.transaction("rw", [this.db.sessions, this.db.messages, this.db.parts, this.db.terms], async () => {
        const parts = rows.flatMap((r) => r.messages.flatMap((m) => m.parts));
        await this.db.sessions.bulkAdd(rows.map((r) => r.session));
        const messages = rows.flatMap((r) => r.messages.map((m) => m.info));
        for (let i = 0; i < messages.length; i += 500) await this.db.messages.bulkAdd(messages.slice(i, i + 500));
        await addImportedParts(this.db, parts);
      }),
    ).then(() => this.live.sessionsReplaced(rows.map((r) => r.session.id)));
  }

  corrupt(): CorruptRecord[] {
    return this.log.list();
  }

  /** Parts matching every word of `query` (word prefixes), newest first. */
  search(query: string, limit?: number): Promise<SearchHit[]> {
    return searchParts(this.db, query, limit);
  }

  /** Re-indexes tool parts stored before tool inputs were indexed as written (once per database; see `reindexToolInputs`). */
  reindexToolInputs(pause: () => Promise<void>): Promise<number> {
    return reindexToolInputs(this.db, { pause });
  }

  /** Notifies when the list of corrupt records changes. */
  subscribeCorrupt(listener: () => void): () => void {
    return this.log.subscribe(listener);
  }
}
