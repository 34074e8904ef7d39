import type { CorruptRecord, ImportRows, PartDelta, Store } from "../ports/store";
import type { Message, MessageWithParts, Part, Session } from "../schema";
import { addMessage } from "./add-message";
import { messagesToRead } from "./read-messages";

/**
 * The loop's view of a running session, kept in memory (issue: every step
 * re-read and re-validated the whole session from IndexedDB several times
 * before its first token). While a session is held (its run is in this tab),
 * `messages()` answers from memory and every write made through this store is
 * applied to that copy as well as passed on. Sessions that are not held read
 * straight through. Messages returned are shared objects: treat them as read-only.
 *
 * The copy starts as the store's own in-memory rows where it has them (the
 * session on screen: `Store.sharedMessages`), which nobody may change; a row or
 * part is copied the first time this store changes it (a long session's full
 * copy cost tens of milliseconds at the start of every run).
 */
interface Held {
  count: number;
  /** The session's messages by id, once loaded. */
  rows?: Map<string, MessageWithParts>;
  /** Parts written before their message (a prompt writes its text first). */
  early: Map<string, Part[]>;
  /** Bumped by a refresh and by a write made while no copy is loaded: a read under way then may predate it. */
  gen: number;
}

/** Whether two parts have the very same field values, `tokenCount` aside (no allocation: it runs per counted part). */
function sameButCount(x: Part, y: Part): boolean {
  const a = x as unknown as Record<string, unknown>;
  const b = y as unknown as Record<string, unknown>;
  let n = 0;
  for (const k in a) {
    if (k === "tokenCount" || a[k] === undefined) continue;
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const k in b) if (k !== "tokenCount" && b[k] !== undefined) n--;
  return n === 0;
}

export class MirrorStore implements Store {
  private readonly held = new Map<string, Held>();
  /** Rows and parts this store made (its own to change); any other is shared and copied before a change. */
  private readonly owned = new WeakSet<object>();

  constructor(private readonly inner: Store) {}

  /** Keeps the session's messages in memory until `release` (calls nest). */
  hold(sessionID: string): void {
    const h = this.held.get(sessionID);
    if (h) h.count++;
    else this.held.set(sessionID, { count: 1, early: new Map(), gen: 0 });
  }

  release(sessionID: string): void {
    const h = this.held.get(sessionID);
    if (!h) return;
    if (--h.count <= 0) this.held.delete(sessionID);
  }

  /** Drops the copy: the next read goes to storage (other tabs may have written). */
  refresh(sessionID: string): void {
    const h = this.held.get(sessionID);
    if (h) {
      h.rows = undefined;
      h.early.clear();
      h.gen++;
    }
  }

  async messages(sessionID: string): Promise<MessageWithParts[]> {
    const h = this.held.get(sessionID);
    if (!h) return this.inner.messages(sessionID);
    if (!h.rows) {
      const gen = h.gen;
      const loaded = await messagesToRead(this.inner, sessionID);
      // A release, a refresh or a write since this read began: what it read may predate them, so read again.
      if (this.held.get(sessionID) !== h || h.gen !== gen) return this.messages(sessionID);
      // Another read of the same moment may have set the copy first (writes since were applied to it): keep that one.
      h.rows ??= new Map(loaded.map((m) => [m.info.id, m]));
    }
    return [...h.rows.values()]
      .sort((a, b) => (a.info.id < b.info.id ? -1 : a.info.id > b.info.id ? 1 : 0))
      .map((m) => ({ info: m.info, parts: [...m.parts] }));
  }

  /** The session's rows for reading only: the held ones while a run holds the session, else the inner store's shared ones (a session on screen), if it has them. */
  async sharedMessages(sessionID: string): Promise<readonly MessageWithParts[] | undefined> {
    if (this.held.get(sessionID)) return this.messages(sessionID);
    return this.inner.sharedMessages?.(sessionID);
  }

  async messageInfos(sessionID: string): Promise<Message[]> {
    // While held, from the held rows (read now if need be: the run reads them next anyway, and one check of storage serves both).
    if (this.held.get(sessionID)) return (await this.messages(sessionID)).map((m) => m.info);
    return this.inner.messageInfos ? this.inner.messageInfos(sessionID) : (await this.inner.messages(sessionID)).map((m) => m.info);
  }

  async upsertMessage(message: Message): Promise<void> {
    await this.inner.upsertMessage(message);
    this.applyMessage(message);
  }

  /** The held state of a session this store has just written to; a write while no copy is loaded bumps `gen` (a read under way may predate it). */
  private written(sessionID: string): Held | undefined {
    const h = this.held.get(sessionID);
    if (h && !h.rows) h.gen++;
    return h;
  }

  private applyMessage(message: Message): void {
    const h = this.written(message.sessionID);
    if (!h?.rows) return;
    const info = structuredClone(message);
    const cur = this.ownRow(h, message.id);
    if (cur) cur.info = info;
    else {
      h.rows.set(message.id, this.own({ info, parts: h.early.get(message.id) ?? [] }));
      h.early.delete(message.id);
    }
  }

  private own<T extends object>(value: T): T {
    this.owned.add(value);
    return value;
  }

  /** The held row of message `id`, made this store's own first (a shared row is replaced by a copy with its own parts list). */
  private ownRow(h: Held, id: string): MessageWithParts | undefined {
    const row = h.rows?.get(id);
    if (!row || this.owned.has(row)) return row;
    const copy = this.own({ info: row.info, parts: [...row.parts] });
    h.rows?.set(id, copy);
    return copy;
  }

  /**
   * The held part `partID` of message `messageID`, made this store's own first (copied in its row's own list);
   * undefined when `wanted` says the held part is not the one to change (it is then left as it is, shared or not).
   */
  private ownPart(h: Held, messageID: string, partID: string, wanted: (p: Part) => boolean = () => true): Part | undefined {
    const seen = h.rows?.get(messageID)?.parts ?? h.early.get(messageID);
    const i = seen?.findIndex((p) => p.id === partID) ?? -1;
    const found = seen?.[i];
    if (!found || !wanted(found)) return undefined;
    // A row made this store's own keeps its parts in the same order: the part is at `i` there too.
    const list = this.ownRow(h, messageID)?.parts ?? h.early.get(messageID);
    const part = list?.[i];
    if (!list || !part || this.owned.has(part)) return part;
    // The store changes a part's own fields only (streamed text, its count): a shallow copy is enough.
    const copy = this.own({ ...part });
    list[i] = copy;
    return copy;
  }

  async addMessage(message: Message, parts: Part[], session?: (s: Session) => Session): Promise<Session | undefined> {
    const updated = await addMessage(this.inner, message, parts, session);
    for (const p of parts) this.applyPart(p);
    this.applyMessage(message);
    return updated;
  }

  private applyPart(part: Part): void {
    const h = this.written(part.sessionID);
    if (!h?.rows) return;
    const copy = this.own(structuredClone(part));
    const m = this.ownRow(h, part.messageID);
    const list = m?.parts ?? h.early.get(part.messageID) ?? [];
    if (!m) h.early.set(part.messageID, list);
    const i = list.findIndex((p) => p.id === part.id);
    if (i >= 0) list[i] = copy;
    else {
      list.push(copy);
      list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    }
  }

  async upsertPart(part: Part): Promise<void> {
    await this.inner.upsertPart(part);
    this.applyPart(part);
  }

  /**
   * Token counts: set on the held parts at once (the next step reads them from there), where the held
   * part is still the one that was counted; storage gets them when it can (a count is a cache).
   */
  async saveCounts(parts: Part[]): Promise<void> {
    for (const p of parts) this.applyCount(p);
    if (this.inner.saveCounts) await this.inner.saveCounts(parts);
    else for (const p of parts) await this.inner.upsertPart(p);
  }

  /** Sets `counted.tokenCount` on the held part when every other field is the very value that was counted (a part written since is left alone). */
  private applyCount(counted: Part): void {
    const h = this.held.get(counted.sessionID);
    const count = counted.tokenCount;
    if (!h || !count) return;
    const held = this.ownPart(h, counted.messageID, counted.id, (p) => sameButCount(p, counted));
    // A count is three plain fields; it runs over thousands of parts at once on the page (no structuredClone).
    if (held) held.tokenCount = { ...count };
  }

  appendDelta(delta: PartDelta): void {
    this.inner.appendDelta(delta);
    const h = this.held.get(delta.sessionID);
    const part = h && this.ownPart(h, delta.messageID, delta.partID);
    if (part && (part.type === "text" || part.type === "reasoning")) part.text += delta.delta;
  }

  async deleteMessages(sessionID: string, messageIDs: string[]): Promise<void> {
    await this.inner.deleteMessages(sessionID, messageIDs);
    const h = this.written(sessionID);
    for (const id of messageIDs) {
      h?.rows?.delete(id);
      h?.early.delete(id);
    }
  }

  async importSession(session: Session, messages: MessageWithParts[]): Promise<void> {
    await this.inner.importSession(session, messages);
    this.refresh(session.id);
  }

  async deleteSession(id: string): Promise<void> {
    await this.inner.deleteSession(id);
    this.refresh(id);
  }

  // Pass-through: sessions are single rows, always read fresh.
  createSession(session: Session): Promise<void> {
    return this.inner.createSession(session);
  }
  listSessions(opts?: { archived?: boolean }): Promise<Session[]> {
    return this.inner.listSessions(opts);
  }
  getSession(id: string): Promise<Session | undefined> {
    return this.inner.getSession(id);
  }
  updateSession(id: string, patch: (s: Session) => Session): Promise<Session | undefined> {
    return this.inner.updateSession(id, patch);
  }
  getMessage(id: string): Promise<Message | undefined> {
    return this.inner.getMessage(id);
  }
  flush(): Promise<void> {
    return this.inner.flush();
  }
  importSessions(sessions: ImportRows[]): Promise<void> {
    if (!this.inner.importSessions) return Promise.all(sessions.map((s) => this.importSession(s.session, s.messages))).then(() => undefined);
    for (const s of sessions) this.refresh(s.session.id);
    return this.inner.importSessions(sessions);
  }
  storageWasFull(messageID: string): boolean {
    return this.inner.storageWasFull?.(messageID) ?? false;
  }
  corrupt(): CorruptRecord[] {
    return this.inner.corrupt();
  }
}
