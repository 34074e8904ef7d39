import { descendingId, idTime, isTabcodeId } from "../ids";
import type { ImportRows, Store } from "../ports/store";
import type { MessageWithParts, Session } from "../schema";
import { rebaseMessages } from "./remap";
import type { ImportBundle, ImportedSession, Result } from "./types";
import { isQuotaError } from "../errors";

/** What an import wrote. */
export interface ImportResult {
  /** The ids the sessions were written under, in bundle order. */
  sessionIDs: string[];
  /** Those of them that were imported as copies (their id already existed). */
  copied: string[];
}

/**
 * Whether a session can keep its ids: ours (prefixed, time-sortable), in file
 * order, and not from the future. Otherwise (OpenCode ids, hand-edited order)
 * it gets fresh ids in file order, so messages the loop adds later sort after.
 */
function canKeepIds(messages: readonly MessageWithParts[], now: number): boolean {
  const ok = (id: string, prev: string) => isTabcodeId(id) && id > prev && idTime(id) <= now;
  let prevMsg = "";
  for (const m of messages) {
    if (!ok(m.info.id, prevMsg)) return false;
    prevMsg = m.info.id;
    let prevPart = "";
    for (const p of m.parts) {
      if (!ok(p.id, prevPart)) return false;
      prevPart = p.id;
    }
  }
  return true;
}

async function collides(store: Store, s: ImportedSession, keep: boolean): Promise<boolean> {
  if (await store.getSession(s.info.id)) return true;
  if (!keep) return false;
  for (const m of s.messages) if (await store.getMessage(m.info.id)) return true;
  return false;
}

interface Plan {
  session: ImportedSession;
  id: string;
  copy: boolean;
  keep: boolean;
}

export interface ImportOptions {
  now?: number;
  /** The file is the app's own (a shipped sample): `demo` sessions stay demo sessions. */
  trusted?: boolean;
}

/**
 * An imported file is untrusted: `demo` (which would run the session on the
 * built-in model whatever the settings), stored "always" approvals and
 * per-message `system` text (extra instructions hidden from the user) are dropped.
 */
function untrusted(session: ImportedSession): ImportedSession {
  const { demo: _demo, approved: _approved, ...info } = session.info;
  const messages = session.messages.map((m) => {
    if (m.info.role !== "user" || m.info.system === undefined) return m;
    const { system: _system, ...rest } = m.info;
    return { ...m, info: rest };
  });
  return { ...session, info, messages };
}

/**
 * A copy's title: "<title> (copy)", or "(copy 2)", "(copy 3)"… when that is taken, so copies of one file
 * imported again can be told apart in the list. `taken` gets the title chosen.
 */
export function copyTitle(title: string, taken: Set<string>): string {
  const base = title.replace(/ \(copy(?: \d+)?\)$/, "");
  let name = `${base} (copy)`;
  for (let n = 2; taken.has(name); n++) name = `${base} (copy ${n})`;
  taken.add(name);
  return name;
}

function build(plan: Plan, sessionIDs: Map<string, string>, now: number, titles: Set<string>): ImportRows {
  const src = plan.session.info;
  const info: Session = { ...src, id: plan.id };
  if (plan.copy) {
    info.title = copyTitle(src.title, titles);
    delete info.share;
  }
  const parent = src.parentID === undefined ? undefined : sessionIDs.get(src.parentID);
  if (parent === undefined) delete info.parentID;
  else info.parentID = parent;
  if (src.revert) {
    // The workspace states a pending revert names are the exporting browser's: here Unrevert brings the
    // messages back and leaves the imported files as they are, and the banner says so.
    const { snapshot: _snapshot, after: _after, undone: _undone, ownKept: _ownKept, ...kept } = src.revert;
    info.revert = { ...kept, filesKept: true };
  }
  if (plan.keep && !plan.copy) return { session: info, messages: plan.session.messages };
  const rebased = rebaseMessages(plan.session.messages, plan.id, now);
  if (info.revert) {
    const messageID = rebased.messageIDs.get(info.revert.messageID);
    const partID = info.revert.partID === undefined ? undefined : rebased.partIDs.get(info.revert.partID);
    if (messageID === undefined) delete info.revert;
    else {
      info.revert = { ...info.revert, messageID };
      if (partID === undefined) delete info.revert.partID;
      else info.revert.partID = partID;
    }
  }
  if (src.branches) {
    // Branch selections name messages by id: carry them over to the new ids ("root" stays).
    const branches: Record<string, string> = {};
    for (const [key, value] of Object.entries(src.branches)) {
      const k = key === "root" ? key : rebased.messageIDs.get(key);
      const v = rebased.messageIDs.get(value);
      if (k !== undefined && v !== undefined) branches[k] = v;
    }
    info.branches = branches;
  }
  return { session: info, messages: rebased.messages };
}

/**
 * Import, step two: writes a validated bundle. All sessions are written in one
 * transaction when the store offers `importSessions`; otherwise one by one,
 * removing the ones already written if a later one fails. A session whose id
 * (or, when it keeps its ids, one of whose message ids) already exists is
 * imported as a copy: fresh ids throughout and " (copy)" after its title (" (copy 2)"… when taken).
 * Child sessions keep their parent link only when the parent is in the bundle.
 * Unless `trusted`, `demo` flags and per-message system text are dropped.
 * Workspace files in the bundle are not written here.
 */
export async function importBundle(store: Store, bundle: ImportBundle, opts: ImportOptions = {}): Promise<Result<ImportResult>> {
  const now = opts.now ?? Date.now();
  const plans: Plan[] = [];
  try {
    for (const raw of bundle.sessions) {
      const session = opts.trusted ? raw : untrusted(raw);
      const keep = canKeepIds(session.messages, now);
      const copy = await collides(store, session, keep);
      plans.push({ session, keep, copy, id: copy ? descendingId("ses", now) : session.info.id });
    }
  } catch {
    return { ok: false, error: "Nothing was imported: this browser's database did not answer when the existing sessions were checked. Reload the page and try again." };
  }
  // The titles in use, for numbering copies (read only when there is a copy to name; unread, a copy is "(copy)").
  const titles = async () => {
    if (!plans.some((p) => p.copy)) return new Set<string>();
    try {
      return new Set([...(await store.listSessions()), ...(await store.listSessions({ archived: true }))].map((s) => s.title));
    } catch {
      return new Set<string>();
    }
  };
  let written = await write(store, rowsOf(plans, now, await titles()));
  // An id the checks could not see (a part's, or one written meanwhile by another tab) already exists:
  // import as copies with fresh ids throughout, like a colliding session.
  if (!written.ok && !written.quota && plans.some((p) => !p.copy)) {
    for (const p of plans)
      if (!p.copy) {
        p.copy = true;
        p.id = descendingId("ses", now);
      }
    written = await write(store, rowsOf(plans, now, await titles()));
  }
  if (!written.ok) return { ok: false, error: written.error };
  return { ok: true, value: { sessionIDs: plans.map((p) => p.id), copied: plans.filter((p) => p.copy).map((p) => p.id) } };
}

function rowsOf(plans: Plan[], now: number, titles: Set<string>): ImportRows[] {
  const sessionIDs = new Map(plans.map((p) => [p.session.info.id, p.id]));
  return plans.map((p) => build(p, sessionIDs, now, titles));
}

type Written = { ok: true } | { ok: false; error: string; quota: boolean };

async function write(store: Store, rows: ImportRows[]): Promise<Written> {
  const failed = (e: unknown): Written =>
    isQuotaError(e)
      ? { ok: false, quota: true, error: "Nothing was imported: the browser's storage for this site is full. Free some space (delete or export old sessions) and try again." }
      : { ok: false, quota: false, error: "Nothing was imported: this browser's database refused the write. Reload the page and try again." };
  if (store.importSessions) {
    try {
      await store.importSessions(rows);
      return { ok: true };
    } catch (e) {
      return failed(e);
    }
  }
  // Every id written here is new (collisions became copies), so removing them undoes the import.
  const done: string[] = [];
  try {
    for (const r of rows) {
      done.push(r.session.id);
      await store.importSession(r.session, r.messages);
    }
    return { ok: true };
  } catch (e) {
    for (const id of done) await store.deleteSession(id).catch(() => undefined);
    return failed(e);
  }
}

