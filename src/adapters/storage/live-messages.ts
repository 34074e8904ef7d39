/**
 * Sessions on screen, kept in memory and patched by the writes themselves.
 *
 * A live query over a whole session re-reads and re-validates every row after
 * every write: while an answer streams into a 2,000-part session that is a
 * full read every 250 ms, and the long tasks it causes are what the user sees.
 * Here a watched session is read once (the newest messages first, so a long
 * session paints before the rest is read), and then every write this tab makes
 * through `DexieStore` patches the copy: only the messages that changed get new
 * objects, the rest keep their identity (memoised views do not re-render).
 * Writes of other tabs arrive as the ids they touched on a BroadcastChannel and
 * are re-read by id.
 *
 * The snapshot's arrays and objects are shared: treat them as read-only.
 */
import Dexie from "dexie";
import { Message, type MessageWithParts, Part, Session } from "../../core/schema";
import { assembleRows, assembleRowsSliced, byId } from "./assemble-rows";
import type { TabcodeDB } from "./db";
import { slicer } from "./page-slices";
import type { CorruptLog } from "./validate";

/** What a watcher sees: the session's messages in id order, and whether all of them are there yet. */
export interface MessagesSnapshot {
  messages: MessageWithParts[];
  /** False while only the newest messages are loaded (the rest follows in the background). */
  complete: boolean;
}

/** A change, as this tab applies it and as it is announced to other tabs (ids only). */
type Op = { kind: "messages"; infos: Message[] } | { kind: "parts"; parts: Part[] } | { kind: "delete"; ids: string[] } | { kind: "reload" };

type Notice = { sessionID: string; messages?: string[]; parts?: string[]; deleted?: string[]; reload?: boolean } | { all: true };

interface Entry {
  listeners: Set<() => void>;
  snapshot?: MessagesSnapshot;
  byId: Map<string, MessageWithParts>;
  /** Parts written before their message (a prompt writes its text first). */
  early: Map<string, Part[]>;
  /** Changes that arrived while a read was under way: applied again on top of what it read. */
  pending?: Op[];
  loading: boolean;
  /** Other tabs' changes announced and still being read by id (the copy is behind storage until they land). */
  reading: number;
  /** Bumped by every change applied to the copy. */
  version: number;
  /** Bumped by a reload, so a read that a newer one replaced is dropped. */
  generation: number;
  used: number;
  /** Who waits for the copy to change or settle (`whenSettled`). */
  waiters?: (() => void)[];
  /** Bumped by every other tab's notice about the session (and by `everythingChanged`). */
  foreign: number;
  /** The last check of the copy against storage that matched (`checkedSnapshot`). */
  checked?: { at: number; foreign: number; generation: number };
  /** The session row the first read brought with the newest messages (`sessionAsRead`). */
  row?: { session: Session; at: number; foreign: number };
  /** Bumped when this tab writes the session row (before and after the write): a read that overlapped one keeps no row. */
  rowWrites: number;
}

/** A copy that matches storage as far as this tab knows: fully read, no read under way, no other tab's change still being read, no orphan parts. */
function isSettled(e: Entry): boolean {
  return e.snapshot?.complete === true && !e.loading && e.reading === 0 && e.early.size === 0;
}

/** How long a matching check of a session's copy against storage stands for this tab's own later writes (ms). */
const RECHECK_MS = 1_000;

/** How long the session row read with a session's newest messages stands in for a read of its own (ms). */
const ROW_FRESH_MS = 2_000;

/** How long a caller that would otherwise read a whole session waits for the screen's copy of it to finish loading (ms). */
export const SETTLE_WAIT_MS = 3_000;

const byInfoId = (a: MessageWithParts, b: MessageWithParts) => byId(a.info, b.info);

/** Options (tests set them). */
export interface LiveMessagesOptions {
  /** How many of the newest messages the first read brings (the rest follows). Default 40. */
  tail?: number;
  /** Sessions kept in memory when nobody watches them any more (quick switching back). Default 2. */
  keep?: number;
}

export class LiveMessages {
  private readonly entries = new Map<string, Entry>();
  private readonly channel: BroadcastChannel | undefined;
  private readonly tail: number;
  private readonly keep: number;
  private clock = 0;

  constructor(
    private readonly db: TabcodeDB,
    private readonly log: CorruptLog,
    options: LiveMessagesOptions = {},
  ) {
    this.tail = options.tail ?? 40;
    this.keep = options.keep ?? 2;
    this.channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(`tabcode-store:${db.name}`) : undefined;
    if (this.channel) this.channel.onmessage = (ev: MessageEvent<Notice>) => this.received(ev.data);
  }

  /** Watches a session; the first watcher starts the read. Returns the unsubscribe function. */
  watch(sessionID: string, listener: () => void): () => void {
    let e = this.entries.get(sessionID);
    if (!e) {
      e = { listeners: new Set(), byId: new Map(), early: new Map(), loading: false, reading: 0, version: 0, generation: 0, used: 0, foreign: 0, rowWrites: 0 };
      this.entries.set(sessionID, e);
      this.load(sessionID, e);
    }
    e.listeners.add(listener);
    e.used = ++this.clock;
    const entry = e;
    return () => {
      entry.listeners.delete(listener);
      entry.used = ++this.clock;
      this.evict();
    };
  }

  /**
   * Starts reading a session that is about to be watched (the session a link opens, while the app starts):
   * it is then kept like one watched a moment ago, so the first watcher finds the read under way or done.
   */
  prefetch(sessionID: string): void {
    this.watch(sessionID, () => undefined)();
  }

  /**
   * The session row read in the same transaction as the session's newest messages, while that read is
   * fresh (two seconds, no write of the row by this tab since, no other tab's notice about the session):
   * a view can show those messages without waiting for a read of the row of its own. `undefined` otherwise.
   */
  sessionAsRead(sessionID: string): Session | undefined {
    const e = this.entries.get(sessionID);
    const r = e?.row;
    return r && r.foreign === e.foreign && Date.now() - r.at < ROW_FRESH_MS ? r.session : undefined;
  }

  /** This tab writes the session row (called before and after the write): the one read with the messages is out of date. */
  sessionRowWritten(sessionID: string): void {
    const e = this.entries.get(sessionID);
    if (!e) return;
    e.row = undefined;
    e.rowWrites++;
  }

  /** The session's messages as last read and patched, or `undefined` before the first read. */
  snapshot(sessionID: string): MessagesSnapshot | undefined {
    return this.entries.get(sessionID)?.snapshot;
  }

  // ── writes made by this tab (called after they committed) ────────────────

  messagesWritten(sessionID: string, infos: Message[]): void {
    if (infos.length === 0) return;
    this.apply(sessionID, { kind: "messages", infos: infos.map((m) => structuredClone(m)) });
    this.announce({ sessionID, messages: infos.map((m) => m.id) });
  }

  /** A new message written with its parts in one transaction: one snapshot and one notice for both. */
  messageWritten(info: Message, parts: Part[]): void {
    const ops: Exclude<Op, { kind: "reload" }>[] = [];
    if (parts.length) ops.push({ kind: "parts", parts: parts.map((p) => structuredClone(p)) });
    ops.push({ kind: "messages", infos: [structuredClone(info)] });
    this.applyAll(info.sessionID, ops);
    this.announce({ sessionID: info.sessionID, messages: [info.id], ...(parts.length ? { parts: parts.map((p) => p.id) } : {}) });
  }

  partsWritten(parts: Part[]): void {
    const bySession = new Map<string, Part[]>();
    for (const p of parts) bySession.set(p.sessionID, [...(bySession.get(p.sessionID) ?? []), p]);
    for (const [sessionID, list] of bySession) {
      this.apply(sessionID, { kind: "parts", parts: list.map((p) => structuredClone(p)) });
      this.announce({ sessionID, parts: list.map((p) => p.id) });
    }
  }

  /**
   * Token counts stored for parts: set on the parts in memory as they are, without a new snapshot. Nothing
   * on screen shows a part's count, and publishing thousands of count-only changes re-rendered a long
   * session while its next request was being sent. Other tabs are not told (a count is a cache: a copy
   * without it is counted again).
   */
  countsWritten(parts: Part[]): void {
    let changed = false;
    for (const part of parts) {
      const m = this.entries.get(part.sessionID)?.byId.get(part.messageID);
      const cur = m?.parts.find((p) => p.id === part.id);
      if (cur && part.tokenCount) {
        cur.tokenCount = structuredClone(part.tokenCount);
        changed = true;
      }
    }
    if (!changed) return;
    // The views that size the next request recount with them: at once for the first slice (so every view
    // that sizes the request from now on agrees with the ones already shown), then at most twice a second
    // while more slices come.
    if (this.countsTimer !== undefined) {
      this.countsPending = true;
      return;
    }
    this.bumpCounts();
    this.countsTimer = setTimeout(() => this.countsQuiet(), 500);
  }

  private countsQuiet(): void {
    this.countsTimer = undefined;
    if (!this.countsPending) return;
    this.countsPending = false;
    this.bumpCounts();
    this.countsTimer = setTimeout(() => this.countsQuiet(), 500);
  }

  private bumpCounts(): void {
    this.countsVersion++;
    for (const l of [...this.countsListeners]) l();
  }

  /** Bumped when stored token counts reached a watched session's parts: at once, then at most twice a second. */
  countsVersion = 0;
  private countsTimer: ReturnType<typeof setTimeout> | undefined;
  private countsPending = false;
  private readonly countsListeners = new Set<() => void>();

  /** Calls `listener` when `countsVersion` changes. Returns the unsubscribe function. */
  watchCounts(listener: () => void): () => void {
    this.countsListeners.add(listener);
    return () => {
      this.countsListeners.delete(listener);
    };
  }

  messagesDeleted(sessionID: string, ids: string[]): void {
    this.apply(sessionID, { kind: "delete", ids });
    this.announce({ sessionID, deleted: ids });
  }

  /** Whole sessions were replaced (import, delete): read them again. */
  sessionsReplaced(sessionIDs: string[]): void {
    for (const sessionID of sessionIDs) {
      this.apply(sessionID, { kind: "reload" });
      this.announce({ sessionID, reload: true });
    }
  }

  /** Something changed rows without saying which (journal recovery): every watched session is read again. */
  everythingChanged(): void {
    for (const sessionID of this.entries.keys()) this.apply(sessionID, { kind: "reload" });
    this.announce({ all: true });
  }

  // ── internals ────────────────────────────────────────────────────────────

  private announce(notice: Notice): void {
    try {
      this.channel?.postMessage(notice);
    } catch {
      // A closed channel (page going away): other tabs re-read on their next open.
    }
  }

  /** Another tab wrote: re-read what it names, for the sessions watched here. */
  private received(n: Notice): void {
    if ("all" in n) {
      for (const [sessionID, e] of this.entries) {
        e.foreign++;
        this.apply(sessionID, { kind: "reload" });
      }
      return;
    }
    const e = this.entries.get(n.sessionID);
    if (!e) return;
    e.foreign++;
    if (n.reload) {
      this.apply(n.sessionID, { kind: "reload" });
      return;
    }
    if (n.deleted?.length) this.apply(n.sessionID, { kind: "delete", ids: n.deleted });
    const read = async () => {
      const [messageRows, partRows] = await Promise.all([this.db.messages.bulkGet(n.messages ?? []), this.db.parts.bulkGet(n.parts ?? [])]);
      const infos = messageRows.flatMap((r) => (r === undefined ? [] : [this.log.parse(Message, "messages", r)].filter((x): x is Message => x !== undefined)));
      const parts = partRows.flatMap((r) => (r === undefined ? [] : [this.log.parse(Part, "parts", r)].filter((x): x is Part => x !== undefined)));
      if (infos.length) this.apply(n.sessionID, { kind: "messages", infos });
      if (parts.length) this.apply(n.sessionID, { kind: "parts", parts });
    };
    e.reading++;
    read()
      .catch(() => this.apply(n.sessionID, { kind: "reload" }))
      .finally(() => {
        e.reading--;
        this.wake(e);
      });
  }

  private apply(sessionID: string, op: Op): void {
    const e = this.entries.get(sessionID);
    if (!e) return;
    if (op.kind === "reload") {
      this.load(sessionID, e);
      return;
    }
    this.applyAll(sessionID, [op]);
  }

  /** Applies changes (no reload among them) and publishes them as one snapshot. */
  private applyAll(sessionID: string, ops: Exclude<Op, { kind: "reload" }>[]): void {
    const e = this.entries.get(sessionID);
    if (!e) return;
    if (e.loading) e.pending?.push(...ops);
    if (!e.snapshot) return;
    for (const op of ops) this.patch(e, op);
    this.publish(e, e.snapshot.complete);
  }

  /** Applies one change to the in-memory rows (not yet published). */
  private patch(e: Entry, op: Exclude<Op, { kind: "reload" }>): void {
    e.version++;
    if (op.kind === "messages") {
      for (const info of op.infos) {
        const cur = e.byId.get(info.id);
        const parts = cur?.parts ?? (e.early.get(info.id) ?? []).sort(byId);
        e.early.delete(info.id);
        e.byId.set(info.id, { info, parts });
      }
    } else if (op.kind === "parts") {
      const touched = new Map<string, Part[]>();
      for (const part of op.parts) {
        const m = e.byId.get(part.messageID);
        if (!m) {
          const list = (e.early.get(part.messageID) ?? []).filter((p) => p.id !== part.id);
          e.early.set(part.messageID, [...list, part]);
          continue;
        }
        const list = touched.get(part.messageID) ?? [...m.parts];
        const i = list.findIndex((p) => p.id === part.id);
        if (i >= 0) list[i] = part;
        else list.push(part);
        touched.set(part.messageID, list);
      }
      for (const [messageID, list] of touched) {
        const m = e.byId.get(messageID);
        if (m) e.byId.set(messageID, { info: m.info, parts: list.sort(byId) });
      }
    } else {
      for (const id of op.ids) {
        e.byId.delete(id);
        e.early.delete(id);
      }
    }
  }

  private publish(e: Entry, complete: boolean): void {
    e.snapshot = { messages: [...e.byId.values()].sort(byInfoId), complete };
    for (const l of [...e.listeners]) l();
    this.wake(e);
  }

  private wake(e: Entry): void {
    const waiters = e.waiters;
    e.waiters = undefined;
    for (const w of waiters ?? []) w();
  }

  /** Reads the session: the newest messages first (published at once), then all of it. */
  private load(sessionID: string, e: Entry): void {
    const generation = ++e.generation;
    e.row = undefined;
    e.loading = true;
    e.pending = [];
    const current = () => e.generation === generation && this.entries.get(sessionID) === e;
    const settle = (rows: { messages: MessageWithParts[]; complete: boolean }) => {
      if (!current()) return;
      e.version++;
      e.byId = new Map(rows.messages.map((m) => [m.info.id, m]));
      e.early = new Map();
      for (const op of e.pending ?? []) if (op.kind !== "reload") this.patch(e, op);
      if (rows.complete) {
        e.loading = false;
        e.pending = undefined;
      }
      this.publish(e, rows.complete);
    };
    (async () => {
      const writes = e.rowWrites;
      const newest = await this.readTail(sessionID);
      if (!current()) return;
      if (newest.session && e.rowWrites === writes) e.row = { session: newest.session, at: Date.now(), foreign: e.foreign };
      if (newest.complete) return settle(newest);
      // Only a first paint: a branched or reverted session waits for the whole read (its shown path needs every message).
      const painted = newest.messages.length > 0 && !e.snapshot;
      if (painted) settle(newest);
      // The rest is read after that paint and validated in slices, so filling it in never holds the page.
      if (painted) await this.afterPaint();
      if (!current()) return;
      settle({ messages: await this.readAll(sessionID), complete: true });
    })().catch(() => {
      if (!current()) return;
      // The rows could not be read (the database went away): show what is known rather than spin forever.
      e.loading = false;
      e.pending = undefined;
      if (!e.snapshot) this.publish(e, true);
      this.wake(e);
    });
  }

  /** Whether the session row is unusable (then the session shows no messages, as `Store.messages` does). */
  private async sessionCorrupt(sessionID: string): Promise<{ corrupt: boolean; session?: Session }> {
    const row = await this.db.sessions.get(sessionID);
    if (row === undefined) return { corrupt: false };
    const session = this.log.parse(Session, "sessions", row);
    return session ? { corrupt: false, session } : { corrupt: true };
  }

  /**
   * The session's newest messages with their parts, in one read-only transaction. Resolved as soon as the
   * last read has answered, not at the transaction's `complete` event (a read-only transaction has nothing to
   * commit; its end is one more round trip, ~10 ms of an in-app open, traced). The session row and the
   * newest messages are asked for together (two requests, one wait).
   */
  private readTail(sessionID: string): Promise<{ messages: MessageWithParts[]; complete: boolean; session?: Session }> {
    return new Promise((settle, reject) => {
      // Handed over outside the transaction's zone: what the caller reads next is not part of this transaction.
      let session: Session | undefined;
      const resolve = (rows: { messages: MessageWithParts[]; complete: boolean }) => Dexie.ignoreTransaction(() => settle({ ...rows, ...(session ? { session } : {}) }));
      this.db
        .transaction("r", [this.db.sessions, this.db.messages, this.db.parts], async () => {
          const range = this.db.messages.where("[sessionID+id]").between([sessionID, Dexie.minKey], [sessionID, Dexie.maxKey]);
          const [s, newestFirst] = await Promise.all([this.sessionCorrupt(sessionID), range.reverse().limit(this.tail + 1).toArray()]);
          if (s.corrupt) return resolve({ messages: [], complete: true });
          session = s.session;
          const rows = newestFirst.reverse();
          const complete = rows.length <= this.tail;
          const kept = complete ? rows : rows.slice(1);
          const first = kept[0];
          const last = kept[kept.length - 1];
          if (!first || !last) return resolve({ messages: [], complete });
          // Branches and a soft revert need the whole session to know what is shown: no partial paint then.
          if (!complete && (s.session?.branches !== undefined || s.session?.revert !== undefined)) return resolve({ messages: [], complete: false });
          const partRows = await this.db.parts.where("[messageID+id]").between([first.id, Dexie.minKey], [last.id, Dexie.maxKey]).toArray();
          resolve({ messages: assembleRows(this.log, kept, partRows), complete });
        })
        .catch(reject);
    });
  }

  /**
   * A copy of a watched session's messages as storage holds them, without reading them again (a long
   * session's full read costs the agent loop hundreds of milliseconds before each run). Only when the copy
   * is complete and settled (no read under way, no other tab's announced change still being read, no
   * orphan parts) and storage holds exactly as many of the session's messages and parts (two key counts);
   * otherwise `undefined`, and the caller reads storage. The copy is deep: the caller may change it.
   *
   * What the counts cannot see is another tab rewriting an existing row in the moment before its notice
   * arrives here; such writes (a summary's text, a revert) need the session idle in every tab, so they
   * cannot land during a run, only in the milliseconds before one starts.
   */
  async currentCopy(sessionID: string): Promise<MessageWithParts[] | undefined> {
    const messages = await this.checkedSnapshot(sessionID, { waitMs: SETTLE_WAIT_MS });
    if (!messages) return undefined;
    // Copied in slices (the messages checked are the ones copied; only their cached counts may change meanwhile): a long
    // session's copy takes tens of milliseconds, one long task in the middle of a send otherwise.
    const copy: MessageWithParts[] = [];
    const breathe = slicer();
    for (const m of messages) {
      copy.push(structuredClone(m));
      await breathe();
    }
    return copy;
  }

  /** `currentCopy`'s messages without their parts (what a new prompt's place in the tree needs): shared, read-only (an info is replaced, never changed). */
  async currentInfos(sessionID: string): Promise<Message[] | undefined> {
    const messages = await this.checkedSnapshot(sessionID);
    return messages?.map((m) => m.info);
  }

  /** The watched session's snapshot when it matches storage (see `currentCopy`); shared objects. */
  async checkedSnapshot(sessionID: string, opts: { waitMs?: number } = {}): Promise<MessageWithParts[] | undefined> {
    if (opts.waitMs) await this.whenSettled(sessionID, opts.waitMs);
    const e = this.entries.get(sessionID);
    const settled = (): boolean => e !== undefined && this.entries.get(sessionID) === e && isSettled(e);
    if (!e || !settled()) return undefined;
    // A check that matched a moment ago still holds when only this tab's own writes changed the copy since
    // (each applied here as it committed): the run that starts right after its prompt was written (which checked)
    // does not ask storage again. That second check queues behind the prompt's write: 1-20 ms of a send in a
    // 2,000-part session measured with timing marks (30-60 ms under a trace). Any other tab's notice, a reload or
    // the moment passing means a new check.
    const c = e.checked;
    if (c && c.foreign === e.foreign && c.generation === e.generation && Date.now() - c.at < RECHECK_MS && e.snapshot) return e.snapshot.messages;
    const version = e.version;
    const foreign = e.foreign;
    const [messages, parts] = await this.db.transaction("r", [this.db.messages, this.db.parts], () =>
      Promise.all([
        this.db.messages.where("[sessionID+id]").between([sessionID, Dexie.minKey], [sessionID, Dexie.maxKey]).count(),
        this.db.parts.where("sessionID").equals(sessionID).count(),
      ]),
    );
    const snapshot = e.snapshot;
    if (!settled() || e.version !== version || !snapshot) return undefined;
    if (snapshot.messages.length !== messages || snapshot.messages.reduce((n, m) => n + m.parts.length, 0) !== parts) return undefined;
    if (e.foreign === foreign) e.checked = { at: Date.now(), foreign, generation: e.generation };
    return snapshot.messages;
  }

  /**
   * Waits, at most `maxMs`, until a watched session's copy is complete and settled. A session opened a moment
   * ago is still reading its older messages (after the first paint, in slices): a run that starts then (the
   * first send after a page load) waits for that read instead of reading and validating the whole session a
   * second time beside it, which on two cores took longer than both. Returns at once for a session not watched.
   */
  private async whenSettled(sessionID: string, maxMs: number): Promise<void> {
    const deadline = Date.now() + maxMs;
    for (;;) {
      const e = this.entries.get(sessionID);
      const left = deadline - Date.now();
      if (!e || isSettled(e) || (!e.loading && e.reading === 0) || left <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        const waiters = e.waiters ?? [];
        e.waiters = waiters;
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Every message of the session, validated in time slices (the page stays responsive meanwhile); none when its record is damaged. */
  async readAll(sessionID: string): Promise<MessageWithParts[]> {
    const rows = await this.db.transaction("r", [this.db.sessions, this.db.messages, this.db.parts], async () => {
      if ((await this.sessionCorrupt(sessionID)).corrupt) return undefined;
      const [messageRows, partRows] = await Promise.all([
        this.db.messages.where("[sessionID+id]").between([sessionID, Dexie.minKey], [sessionID, Dexie.maxKey]).toArray(),
        this.db.parts.where("sessionID").equals(sessionID).toArray(),
      ]);
      return { messageRows, partRows };
    });
    if (!rows) return [];
    return assembleRowsSliced(this.log, rows.messageRows, rows.partRows);
  }

  /** Resolves once the browser has painted what was just published (a macrotask after the next frame). */
  private afterPaint(): Promise<void> {
    return new Promise((resolve) => {
      const later = () => setTimeout(resolve, 0);
      if (typeof requestAnimationFrame === "function" && typeof document !== "undefined" && document.visibilityState === "visible")
        requestAnimationFrame(later);
      else later();
    });
  }

  /** Drops sessions nobody watches, beyond the `keep` most recently used. */
  private evict(): void {
    const idle = [...this.entries].filter(([, e]) => e.listeners.size === 0).sort(([, a], [, b]) => b.used - a.used);
    for (const [id] of idle.slice(this.keep)) this.entries.delete(id);
  }

  close(): void {
    this.channel?.close();
  }
}
