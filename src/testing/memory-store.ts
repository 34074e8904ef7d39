/**
 * `Store` in memory, for fast core unit tests. Same semantics as the Dexie
 * store (ordering, archived filter, cascades, copies in and out) without
 * batching: `appendDelta` applies text at once and `flush()` does nothing.
 */
import type { CorruptRecord, ImportRows, PartDelta, Store } from "../core/ports/store";
import type { Message, MessageWithParts, Part, Session } from "../core/schema";

function byId<T extends { id: string }>(a: T, b: T): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The `Store` port in memory: no persistence, no validation, no batching. */
export class MemoryStore implements Store {
  private readonly sessions = new Map<string, Session>();
  private readonly messageRows = new Map<string, Message>();
  private readonly parts = new Map<string, Part>();

  async createSession(session: Session): Promise<void> {
    if (this.sessions.has(session.id)) {
      // Same name as IndexedDB's error for a duplicate key.
      throw Object.assign(new Error(`Session ${session.id} already exists`), { name: "ConstraintError" });
    }
    this.sessions.set(session.id, structuredClone(session));
  }

  /** Newest `time.updated` first. `archived: true` lists only archived sessions, otherwise only active ones. */
  async listSessions(opts: { archived?: boolean } = {}): Promise<Session[]> {
    const want = opts.archived === true;
    return [...this.sessions.values()]
      .filter((s) => (s.time.archived !== undefined) === want)
      .sort((a, b) => b.time.updated - a.time.updated || byId(a, b))
      .map((s) => structuredClone(s));
  }

  async getSession(id: string): Promise<Session | undefined> {
    const s = this.sessions.get(id);
    return s && structuredClone(s);
  }

  async updateSession(id: string, patch: (s: Session) => Session): Promise<Session | undefined> {
    const s = this.sessions.get(id);
    if (!s) return undefined;
    const next = patch(structuredClone(s));
    this.sessions.set(id, structuredClone(next));
    return next;
  }

  async deleteSession(id: string): Promise<void> {
    for (const [k, p] of this.parts) if (p.sessionID === id) this.parts.delete(k);
    for (const [k, m] of this.messageRows) if (m.sessionID === id) this.messageRows.delete(k);
    this.sessions.delete(id);
  }

  async messages(sessionID: string): Promise<MessageWithParts[]> {
    const out = [...this.messageRows.values()]
      .filter((m) => m.sessionID === sessionID)
      .sort(byId)
      .map((info): MessageWithParts => ({ info: structuredClone(info), parts: [] }));
    const index = new Map(out.map((m) => [m.info.id, m]));
    const parts = [...this.parts.values()].filter((p) => p.sessionID === sessionID).sort(byId);
    for (const p of parts) index.get(p.messageID)?.parts.push(structuredClone(p));
    return out;
  }

  async messageInfos(sessionID: string): Promise<Message[]> {
    return [...this.messageRows.values()]
      .filter((m) => m.sessionID === sessionID)
      .sort(byId)
      .map((m) => structuredClone(m));
  }

  async getMessage(id: string): Promise<Message | undefined> {
    const m = this.messageRows.get(id);
    return m && structuredClone(m);
  }

  async upsertMessage(message: Message): Promise<void> {
    this.messageRows.set(message.id, structuredClone(message));
  }

  async addMessage(message: Message, parts: Part[], session?: (s: Session) => Session): Promise<Session | undefined> {
    for (const p of parts) await this.upsertPart(p);
    await this.upsertMessage(message);
    return session ? this.updateSession(message.sessionID, session) : undefined;
  }

  async deleteMessages(_sessionID: string, messageIDs: string[]): Promise<void> {
    const ids = new Set(messageIDs);
    for (const [k, p] of this.parts) if (ids.has(p.messageID)) this.parts.delete(k);
    for (const id of ids) this.messageRows.delete(id);
  }

  async upsertPart(part: Part): Promise<void> {
    this.parts.set(part.id, structuredClone(part));
  }

  appendDelta(delta: PartDelta): void {
    const p = this.parts.get(delta.partID);
    if (p && (p.type === "text" || p.type === "reasoning")) p.text += delta.delta;
  }

  async flush(): Promise<void> {}

  async importSession(session: Session, messages: MessageWithParts[]): Promise<void> {
    this.sessions.set(session.id, structuredClone(session));
    for (const m of messages) {
      this.messageRows.set(m.info.id, structuredClone(m.info));
      for (const p of m.parts) this.parts.set(p.id, structuredClone(p));
    }
  }

  /** All or nothing, never overwriting: any existing id rejects the whole batch before a write. */
  async importSessions(sessions: ImportRows[]): Promise<void> {
    const seen = new Set<string>();
    const clash = (table: Map<string, unknown>, id: string): boolean => {
      const dup = table.has(id) || seen.has(id);
      seen.add(id);
      return dup;
    };
    for (const { session, messages } of sessions) {
      let bad = clash(this.sessions, session.id);
      for (const m of messages) {
        bad ||= clash(this.messageRows, m.info.id);
        for (const p of m.parts) bad ||= clash(this.parts, p.id);
      }
      if (bad) throw Object.assign(new Error("An imported id already exists"), { name: "ConstraintError" });
    }
    for (const { session, messages } of sessions) await this.importSession(session, messages);
  }

  corrupt(): CorruptRecord[] {
    return [];
  }
}
