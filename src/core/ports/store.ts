import type { Message, MessageWithParts, Part, Session } from "../schema";

/** A stored row that failed validation: reported, never fatal. */
export interface CorruptRecord {
  table: "sessions" | "messages" | "parts" | "settings";
  id: string;
  sessionID?: string;
  issue: string;
}

/** A streamed text delta, appended to a text or reasoning part. */
export interface PartDelta {
  sessionID: string;
  messageID: string;
  partID: string;
  field: "text";
  delta: string;
}

/** One whole session with its messages and their parts, as an import writes it. */
export interface ImportRows {
  session: Session;
  messages: MessageWithParts[];
}

/**
 * The persistence port. The Dexie adapter implements it in the browser; a
 * memory implementation backs unit tests. All methods may reject with a
 * `QuotaError` when the browser's storage is full.
 */
export interface Store {
  createSession(session: Session): Promise<void>;
  /** Sessions, most recently updated first. Archived ones only when asked. */
  listSessions(opts?: { archived?: boolean }): Promise<Session[]>;
  getSession(id: string): Promise<Session | undefined>;
  /** Read-modify-write of one session in a transaction. Returns the new row. */
  updateSession(id: string, patch: (s: Session) => Session): Promise<Session | undefined>;
  /** Deletes the session with all its messages and parts in one transaction. */
  deleteSession(id: string): Promise<void>;

  /** Messages of a session in id (chronological) order, with their parts in order. */
  messages(sessionID: string): Promise<MessageWithParts[]>;
  /**
   * The session's messages without their parts, in id order: all the branch tree needs. Optional (callers
   * fall back to `messages`); a long session has thousands of parts, which a new prompt's place does not need.
   * Read-only: the infos may be the store's own in-memory objects (a session on screen).
   */
  messageInfos?(sessionID: string): Promise<Message[]>;
  /**
   * The session's messages as the store already holds them in memory (a session on screen, checked
   * against storage), shared and read-only: nobody may change them. Undefined when the store has no
   * such copy (then `messages` reads a private one). Optional; lets a reader that copies only what it
   * changes skip copying a long session.
   */
  sharedMessages?(sessionID: string): Promise<readonly MessageWithParts[] | undefined>;
  getMessage(id: string): Promise<Message | undefined>;
  upsertMessage(message: Message): Promise<void>;
  /**
   * Writes a new message with its parts in one transaction (a reader never sees the message without
   * them) and, when `session` is given, updates its session in the same transaction; resolves with the
   * session as updated. One write instead of one per row: a send stores its prompt this way before the
   * request goes out. Optional: callers write the parts, the message and the session one by one.
   */
  addMessage?(message: Message, parts: Part[], session?: (s: Session) => Session): Promise<Session | undefined>;
  /** Deletes messages and their parts. */
  deleteMessages(sessionID: string, messageIDs: string[]): Promise<void>;

  /** Writes a part. Pending deltas for the same part are flushed first. */
  upsertPart(part: Part): Promise<void>;
  /**
   * Saves parts whose only change is bookkeeping (cached token counts), many
   * at once and without re-indexing their text. Optional: callers fall back
   * to `upsertPart`.
   */
  saveCounts?(parts: Part[]): Promise<void>;
  /** Appends text to a part, batched: at least every 250 ms, and on flush(). */
  appendDelta(delta: PartDelta): void;
  /** Writes every pending delta now. */
  flush(): Promise<void>;
  /** Writes messages and parts of a whole session at once (import, fork). */
  importSession(session: Session, messages: MessageWithParts[]): Promise<void>;
  /**
   * Adds whole sessions in one transaction: all or nothing. Never overwrites:
   * if any session, message or part id already exists it rejects (e.g. with a
   * `ConstraintError`, or Dexie's `BulkError`) and writes nothing. Optional:
   * imports fall back to `importSession` one session at a time when a store lacks it.
   */
  importSessions?(sessions: ImportRows[]): Promise<void>;
  /**
   * Whether the browser's storage refused this answer's streamed text (noted
   * outside the database, so it survives a reload). Optional: repair then names
   * both possible causes of an interruption.
   */
  storageWasFull?(messageID: string): boolean;

  /** Rows that failed validation since start-up. */
  corrupt(): CorruptRecord[];
}
