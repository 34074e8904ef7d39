/**
 * Answers whose streamed text the browser refused to store because its storage
 * was full. While the tab lives, the text waits in memory (the store retries on
 * its own) and the UI offers it as a download; the note is also kept in
 * `localStorage` (outside IndexedDB's quota), so after a reload the repaired
 * message says storage was full instead of "the tab was closed".
 */
import { pageStorage } from "./page-storage";

const KEY = "tabcode-storage-full";
const KEEP = 50;

/** An answer with text not stored yet. */
export interface UnsavedAnswer {
  sessionID: string;
  messageID: string;
  /** Characters waiting in memory. */
  chars: number;
}

export class StorageFullLog {
  private unsaved: UnsavedAnswer[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(private readonly local: Storage | undefined = pageStorage()) {}

  /** Streamed text of these answers was refused (they stay in memory, retried). */
  refused(answers: UnsavedAnswer[]): void {
    if (answers.length === 0) return;
    const byId = new Map(this.unsaved.map((a) => [a.messageID, a]));
    for (const a of answers) byId.set(a.messageID, { ...a, chars: a.chars });
    this.unsaved = [...byId.values()];
    this.remember(answers.map((a) => a.messageID));
    this.changed();
  }

  /** Everything that was waiting is stored now. */
  saved(): void {
    if (this.unsaved.length === 0) return;
    const ids = new Set(this.unsaved.map((a) => a.messageID));
    this.unsaved = [];
    this.forget(ids);
    this.changed();
  }

  /** Answers with text only in memory, for the UI. The array changes identity on every change. */
  list(): UnsavedAnswer[] {
    return this.unsaved;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether this answer lost text to a full storage (also from before a reload). */
  wasFull(messageID: string): boolean {
    return this.unsaved.some((a) => a.messageID === messageID) || messageID in this.read();
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }

  private read(): Record<string, number> {
    try {
      const raw = this.local?.getItem(KEY);
      const parsed: unknown = raw ? JSON.parse(raw) : {};
      return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, number>) : {};
    } catch {
      return {};
    }
  }

  private write(notes: Record<string, number>): void {
    try {
      const newest = Object.entries(notes)
        .sort(([, a], [, b]) => b - a)
        .slice(0, KEEP);
      this.local?.setItem(KEY, JSON.stringify(Object.fromEntries(newest)));
    } catch {
      // localStorage full or unavailable: the in-memory note still serves this tab.
    }
  }

  private remember(ids: string[]): void {
    const notes = this.read();
    const now = Date.now();
    for (const id of ids) notes[id] = now;
    this.write(notes);
  }

  private forget(ids: Set<string>): void {
    const notes = this.read();
    for (const id of ids) delete notes[id];
    this.write(notes);
  }
}
