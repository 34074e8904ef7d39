/**
 * Validation of rows read from IndexedDB. A row that fails its zod schema is
 * skipped, reported once with `console.warn` and kept in a log the UI can show;
 * it never throws, so one bad row cannot hide the rest.
 */
import type { z } from "../../core/zod";
import type { CorruptRecord } from "../../core/ports/store";

type Table = CorruptRecord["table"];

/** The first issues of a zod error, in words. */
export function describeIssues(error: z.core.$ZodError): string {
  const issues = error.issues.slice(0, 3).map((i) => {
    const path = i.path.map(String).join(".");
    return path ? `${path}: ${i.message}` : i.message;
  });
  const more = error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : "";
  return issues.join("; ") + more;
}

function field(row: unknown, name: string): string | undefined {
  if (typeof row !== "object" || row === null) return undefined;
  const v = (row as Record<string, unknown>)[name];
  return typeof v === "string" ? v : undefined;
}

/** Parses rows and remembers the ones that fail. */
export class CorruptLog {
  private readonly records = new Map<string, CorruptRecord>();
  private readonly listeners = new Set<() => void>();
  private snapshot: CorruptRecord[] = [];

  constructor(private readonly warn: (message: string) => void = (m) => console.warn(m)) {}

  /** The parsed row, or `undefined` (recorded) when it does not match `schema`. */
  parse<T>(schema: z.ZodMiniType<T>, table: Table, row: unknown, key?: string): T | undefined {
    const result = schema.safeParse(row);
    if (result.success) return result.data;
    const id = field(row, table === "settings" ? "key" : "id") ?? key ?? "(no id)";
    const sessionID = table === "sessions" ? id : field(row, "sessionID");
    this.add({ table, id, ...(sessionID ? { sessionID } : {}), issue: describeIssues(result.error) });
    return undefined;
  }

  /** Records a row that is unusable for a reason the schema cannot see. */
  add(record: CorruptRecord): void {
    const k = `${record.table}:${record.id}`;
    if (this.records.has(k)) return;
    this.records.set(k, record);
    this.changed();
    const where = record.sessionID && record.table !== "sessions" ? ` in session ${record.sessionID}` : "";
    this.warn(`tabcode: skipped a corrupt ${record.table} row ${record.id}${where}: ${record.issue}`);
  }

  /** Forgets records of a deleted session. */
  forgetSession(sessionID: string): void {
    for (const [k, r] of this.records) if (r.sessionID === sessionID) this.records.delete(k);
    this.changed();
  }

  /** A stable array until the next change (usable with useSyncExternalStore). */
  list(): CorruptRecord[] {
    return this.snapshot;
  }

  /** Called whenever a record is added or forgotten. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private changed(): void {
    this.snapshot = [...this.records.values()];
    for (const l of this.listeners) l();
  }
}
