/**
 * User actions on whole sessions that span the store, the sandbox and the
 * export module: fork, revert/unrevert, export, share, import. UI components
 * call these; they return values (or throw for bugs), never touch React.
 * The export module, the zip codec and the demo project are loaded on first
 * use (dynamic imports), so none of them is in the entry bundle.
 */
import { assertNoShellCommand } from "./shell-runs";
import type { Finding } from "../core/export";
import { forgetGlance } from "../ui/glance/keeper";
import type { ExportFile } from "../core/export/types";
import { conversationView } from "../core/conversation/view";
import type { MessageWithParts, Session } from "../core/schema";
import type { AppServices } from "./bootstrap";
import { clearPendingDelete, keptForUndo, notePendingDelete, probePendingDelete } from "./pending-deletes";

export type ExportKind = "json" | "json-files" | "markdown" | "markdown-brief" | "html";

export interface Download {
  name: string;
  data: string | Uint8Array;
  mime: string;
}

/** A session's messages for reading only (`messagesToRead`, loaded with the first caller: it is not needed by the first screen). */
async function readOnly(app: Pick<AppServices, "store">, sessionID: string) {
  const { messagesToRead } = await import("../core/session/read-messages");
  return messagesToRead(app.store, sessionID);
}

/** The export/import module, loaded on first use. */
const exporter = () => import("../core/export");

async function workspaceFiles(app: AppServices, sessionID: string): Promise<Record<string, Uint8Array>> {
  const { allFiles } = await import("../core/workspace/files");
  return Object.fromEntries(await allFiles(await app.sandbox.sandboxFor(sessionID)));
}

/** The export of a session, with the secrets the user chose to remove replaced by placeholders. */
async function exportedFile(
  app: AppServices,
  sessionID: string,
  opts: { workspace?: Record<string, Uint8Array>; remove?: readonly Finding[] } = {},
): Promise<ExportFile> {
  await app.store.flush();
  const { exportSession, redactFile } = await exporter();
  const file = await exportSession(app.store, sessionID, opts.workspace ? { workspace: opts.workspace } : {});
  if (!file) throw new Error("This session no longer exists.");
  return redactFile(file, opts.remove ?? []);
}

/**
 * What the redaction pass finds in a session before it is shared or exported: in its messages, and in its
 * workspace's files when they go too (`files`). The key set in Settings counts whatever its shape.
 */
export async function secretsIn(app: AppServices, sessionID: string, opts: { files?: boolean } = {}): Promise<Finding[]> {
  const { findSecrets } = await exporter();
  const workspace = opts.files ? await workspaceFiles(app, sessionID) : undefined;
  return findSecrets(await exportedFile(app, sessionID, { workspace }), [app.settings.get().apiKey]);
}

export async function exportOne(app: AppServices, sessionID: string, kind: ExportKind, remove: readonly Finding[] = []): Promise<Download> {
  const workspace = kind === "json-files" ? await workspaceFiles(app, sessionID) : undefined;
  const file = await exportedFile(app, sessionID, { workspace, remove });
  const { exportFileName, serializeExport, sessionHtml, sessionMarkdown } = await exporter();
  // Transcripts show the branch being viewed (the writers take it from the conversation view); the JSON keeps every branch.
  switch (kind) {
    case "json":
    case "json-files":
      return { name: exportFileName(file.info, "json", kind === "json-files" ? "with-files" : undefined), data: serializeExport(file), mime: "application/json" };
    case "markdown":
      return {
        name: exportFileName(file.info, "md"),
        data: sessionMarkdown(file, { thinking: true, toolDetails: true, assistantMetadata: true }),
        mime: "text/markdown",
      };
    case "markdown-brief":
      return {
        name: exportFileName(file.info, "md", "conversation"),
        data: sessionMarkdown(file, { thinking: false, toolDetails: false, assistantMetadata: false }),
        mime: "text/markdown",
      };
    case "html":
      return { name: exportFileName(file.info, "html"), data: sessionHtml(file, { thinking: true }), mime: "text/html" };
  }
}

/** What the redaction pass finds in every session, before Export all. */
export async function secretsInAll(app: AppServices): Promise<Finding[]> {
  await app.store.flush();
  const { exportAll, findSecretsInAll } = await exporter();
  return findSecretsInAll((await exportAll(app.store)).sessions, [app.settings.get().apiKey]);
}

export async function exportEverything(app: AppServices, remove: readonly Finding[] = []): Promise<Download> {
  await app.store.flush();
  const { exportAllZip, ZIP_FILE_NAME } = await exporter();
  return { name: ZIP_FILE_NAME, data: await exportAllZip(app.store, { remove }), mime: "application/zip" };
}

export type ShareResult = { ok: true; url: string } | { ok: false; size: number };

/**
 * A link that carries the session in its fragment, or `ok:false` when it would be too long.
 * With a passphrase the payload is encrypted; `remove` lists the secrets to replace first.
 */
export async function share(
  app: AppServices,
  sessionID: string,
  origin: string,
  opts: { passphrase?: string; remove?: readonly Finding[] } = {},
): Promise<ShareResult> {
  const file = await exportedFile(app, sessionID, { remove: opts.remove });
  const { protectedShareLink, shareLink, stripForShare } = await exporter();
  // A link carries only what is shown: no other branches, nothing hidden by a revert.
  const { revert: _revert, branches: _branches, ...info } = file.info;
  const shown = conversationView(file.info, file.messages).shown.map((m) => (m.info.role === "user" ? { ...m, info: { ...m.info, prev: undefined } } : m));
  const shownFile = stripForShare({ ...file, info, messages: shown });
  const r = opts.passphrase ? await protectedShareLink(origin, shownFile, opts.passphrase) : shareLink(origin, shownFile);
  return r.ok ? { ok: true, url: r.url } : { ok: false, size: r.size };
}

export interface ImportOutcome {
  sessionIDs: string[];
  copied: number;
  warnings: string[];
}

/**
 * Whether a picked or dropped file is another agent's history, for "Import history" rather than the export
 * import, and the name to hand it over under: a database (by its header or name), a Claude Code, Codex or
 * Gemini CLI transcript or chat, or an OpenCode 2.x `session export` (2.x message records). Decided by
 * content, since a downloaded file's name may have lost its extension (Import history reads a name without
 * one as the kind the content showed); a zip and anything else go to the export import (undefined), which
 * says what it is not.
 */
export async function historyPath(file: File): Promise<string | undefined> {
  if (/\.(db|db-wal|sqlite)$/i.test(file.name)) return file.name;
  const [{ isSqlite, textKind }, { isZip }, head] = await Promise.all([import("../core/import"), exporter(), file.slice(0, 16).arrayBuffer()]);
  const bytes = new Uint8Array(head);
  if (isSqlite(bytes)) return file.name;
  if (isZip(bytes) || file.size > 256 * 1024 * 1024) return undefined;
  const text = await file.text();
  const named = /\.jsonl?$/i.test(file.name);
  for (const path of named ? [file.name] : [`${file.name}.jsonl`, `${file.name}.json`]) {
    const kind = textKind({ path, text });
    // A damaged file stays with Import file: the export import names what is wrong with it.
    if (kind !== "export" && kind !== "unknown" && kind !== "damaged") return path;
  }
  return undefined;
}

/** Validates, then writes in one transaction; workspace files carried by the file are restored. */
export async function importFile(
  app: AppServices,
  bytes: Uint8Array,
  opts: { trusted?: boolean; hint?: boolean } = {},
): Promise<{ ok: true; value: ImportOutcome } | { ok: false; error: string }> {
  const { importBundle, parseImportBytes } = await exporter();
  const parsed = parseImportBytes(bytes, { hint: opts.hint });
  if (!parsed.ok) return parsed;
  const written = await importBundle(app.store, parsed.value, { trusted: opts.trusted });
  if (!written.ok) return written;
  // An import may replace a session the kept picture of the last screen shows.
  forgetGlance();
  const warnings = [...parsed.value.warnings];
  for (const [i, s] of parsed.value.sessions.entries()) {
    const id = written.value.sessionIDs[i];
    if (!id || !s.workspace) continue;
    try {
      const files: Record<string, string | Uint8Array> = {};
      for (const [path, f] of Object.entries(s.workspace)) files[path] = f.encoding === "utf8" ? f.data : Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0));
      await app.sandbox.seedWorkspace(id, files);
    } catch (e) {
      console.warn("tabcode: imported workspace files not restored", e);
      warnings.push(`The files of "${s.info.title}" could not be restored (the browser did not store them); the conversation was imported without them.`);
    }
  }
  return { ok: true, value: { sessionIDs: written.value.sessionIDs, copied: written.value.copied.length, warnings } };
}

/**
 * Forks at a message, with the workspace as it was right after that message. `before` leaves the message
 * itself out (forking from your own prompt: the UI puts its text in the fork's composer).
 */
export async function fork(app: AppServices, sessionID: string, messageID: string, include: "before" | "through" = "through"): Promise<Session> {
  app.sessions.assertIdle(sessionID);
  const { forkSession } = await import("../core/session/fork");
  const { session, filesAt } = await forkSession(app.store, { sessionID, messageID, include }, Date.now());
  try {
    await app.sandbox.copyWorkspace(sessionID, session.id, filesAt);
  } catch (e) {
    console.warn("tabcode: the fork's files could not be copied", e);
  }
  return session;
}

/**
 * "Start fresh from here": a child session (linked by `parentID`) with the parent's pins and the files as
 * they were right after that message; returns it with the brief for its composer.
 */
export async function startFresh(app: AppServices, sessionID: string, messageID: string): Promise<{ session: Session; brief: string }> {
  app.sessions.assertIdle(sessionID);
  const fresh = await app.sessions.startFresh(sessionID, messageID);
  try {
    await app.sandbox.copyWorkspace(sessionID, fresh.session.id, fresh.filesAt);
  } catch (e) {
    console.warn("tabcode: the fresh session's files could not be copied", e);
  }
  return fresh;
}

/** Reverts a turn (the revert record says whether its files could go back). */
export async function revert(app: AppServices, sessionID: string, messageID: string): Promise<void> {
  await app.sessions.assertIdleEverywhere(sessionID);
  await assertNoShellCommand(sessionID);
  const sandbox = await app.sandbox.sandboxFor(sessionID).catch(() => undefined);
  const { revertSession } = await import("../core/session/revert");
  await revertSession(app.store, sandbox, sessionID, messageID);
}

/** During a revert, puts back the user's own later versions of the files it undid. */
export async function keepOwnChanges(app: AppServices, sessionID: string): Promise<void> {
  await app.sessions.assertIdleEverywhere(sessionID);
  await assertNoShellCommand(sessionID);
  const sandbox = await app.sandbox.sandboxFor(sessionID);
  const { keepOwnChanges } = await import("../core/session/revert");
  await keepOwnChanges(app.store, sandbox, sessionID);
}

export async function unrevert(app: AppServices, sessionID: string): Promise<void> {
  await app.sessions.assertIdleEverywhere(sessionID);
  await assertNoShellCommand(sessionID);
  const sandbox = await app.sandbox.sandboxFor(sessionID).catch(() => undefined);
  const { unrevertSession } = await import("../core/session/revert");
  await unrevertSession(app.store, sandbox, sessionID);
}

/** A delete that has happened: `undo` brings the session back (undefined when the delete was final), `finish` makes it final. */
export interface DeleteDone {
  undo: (() => Promise<void>) | undefined;
  finish: () => void;
}

/**
 * A session delete, checked but not done (`prepareDelete`). `undoable` says whether it will offer an Undo: its note
 * is written, and `run` uses that very note. When it is false the delete would be final, so ask the user first:
 * `run` when they agree, `cancel` when they do not. Either is called once; nothing is deleted before `run`.
 */
export interface PreparedDelete {
  readonly undoable: boolean;
  /** Why it is not undoable: storage is full even after making room, or it refused the note for another reason. */
  readonly why?: "full" | "refused";
  run(): Promise<DeleteDone>;
  /** Nothing is deleted; the note the check wrote, if it wrote one, is cleared. A no-op once `run` was called. */
  cancel(): void;
}

/**
 * Whether a session's delete can offer an Undo, found out before anything is deleted. The Undo keeps the session's
 * rows in memory and its files on disk until `finish` (the Undo toast went without being pressed); a page closed in
 * between leaves the files, which a later start-up deletes (`finishPendingDeletes`). That needs a note in
 * localStorage (`notePendingDelete`), written here. When storage is full even after making room (the glance's
 * pictures, the oldest terminal logs), there can be no Undo: an Undo without its note would leave the files behind
 * for good when the page closes, and let another tab collect the session's snapshots or sweep its terminal log
 * while the Undo would still bring it back. Then `undoable` is false and the caller asks before `run` deletes for good.
 *
 * The check stops nothing: a run goes on until `run`, so a delete the user calls off leaves the session as it was.
 * It does make room, though, when that lets the note in (what it frees stays freed on `cancel`): to word a
 * question before the user has answered it, `probeDelete`, which frees nothing.
 */
export async function prepareDelete(app: AppServices, s: Session): Promise<PreparedDelete> {
  // The terminal log's rules load here, not with the first screen (only the key is needed there).
  const { makeRoom, roomToMake } = await import("./terminal-log");
  // Noted before the rows go: a start-up sweep of terminal logs running meanwhile keeps this one for Undo. Room is
  // made only when it would let the note in (as `probeDelete` judged): else the delete is for good anyway, and the
  // glance's pictures and other sessions' logs would go for nothing.
  const at = Date.now();
  const noted = notePendingDelete(s.id, at, undefined, (need) => roomToMake(undefined, s.id) >= need && makeRoom(need, undefined, s.id));
  const undoable = noted === "noted";
  let state: "checked" | "run" | "cancelled" = "checked";
  return {
    undoable,
    ...(noted === "noted" ? {} : { why: noted }),
    run: async () => {
      if (state !== "checked") throw new Error(state === "run" ? "this delete has already run" : "this delete was cancelled");
      state = "run";
      return deleteChecked(app, s, undoable, at);
    },
    cancel: () => {
      if (state !== "checked") return;
      state = "cancelled";
      if (undoable) clearPendingDelete(s.id, undefined, at);
    },
  };
}

/**
 * What `prepareDelete` would find now (`undoable`, `why`), found out changing nothing: the question asked when a
 * session's Delete is pressed is worded by it, and the user may still call the delete off. No note is written (one
 * kept while the question is open would hold every tab's snapshot collections back, and read as a closed page's
 * after ten minutes): the room it would take is tried under a key of its own (`probePendingDelete`). When storage
 * is full it frees nothing either: it counts what making room could free (`roomToMake`: the glance's pictures,
 * other sessions' terminal logs) and says undoable when that would let the note in. The room is made by the
 * `prepareDelete` at the answer, which can still find the delete no longer undoable (ask again, for good, before `run`).
 */
export async function probeDelete(s: Session): Promise<Pick<PreparedDelete, "undoable" | "why">> {
  const { roomToMake } = await import("./terminal-log");
  const noted = probePendingDelete(s.id, Date.now(), undefined, (need) => roomToMake(undefined, s.id) >= need);
  return noted === "noted" ? { undoable: true } : { undoable: false, why: noted };
}

/** The delete `prepareDelete` checked: with its Undo when its note is written (`undoable`), else for good. */
async function deleteChecked(app: AppServices, s: Session, undoable: boolean, at: number): Promise<DeleteDone> {
  let kept: { session: Session; messages: MessageWithParts[] } | undefined;
  let gone = false;
  try {
    await app.sessions.stop(s.id);
    await app.sessions.assertIdleEverywhere(s.id);
    await app.store.flush();
    const row = await app.store.getSession(s.id);
    // Already deleted (twice here, or by another tab meanwhile): nothing to delete, and no Undo to offer. Its note
    // is the other delete's now (one entry per session), so it stays for that delete's Undo.
    if (!row) {
      gone = true;
      throw new Error("this session was already deleted");
    }
    kept = undoable ? { session: row, messages: await app.store.messages(s.id) } : undefined;
    await app.store.deleteSession(s.id);
  } catch (e) {
    // Not deleted (running in another tab, a store error): its note goes, as on Cancel.
    if (undoable && !gone) clearPendingDelete(s.id, undefined, at);
    throw e;
  }
  const { terminalSessionDeleted } = await import("./terminal-log");
  // Its command in the terminal, if one runs, stops as its agent's run did (the log stays until `finish`).
  terminalSessionDeleted(s.id);
  // The snapshot a cold open paints shows the sidebar, which named this session.
  forgetGlance();
  if (!kept) {
    // No Undo, as the user agreed: the delete is final now (its files, its terminal log, what only it named).
    await deleteSessionFiles(app, s.id);
    return { undo: undefined, finish: () => undefined };
  }
  const rows = kept;
  keptForUndo.set(s.id, rows);
  let settled = false;
  return {
    undo: async () => {
      if (settled) throw new Error("its files have already been deleted");
      settled = true;
      await app.store.importSession(rows.session, rows.messages);
      keptForUndo.delete(s.id);
      clearPendingDelete(s.id);
    },
    finish: () => {
      if (settled) return;
      settled = true;
      keptForUndo.delete(s.id);
      void (async () => {
        // Brought back meanwhile (imported again under the same id): its files are its own again.
        if (!(await app.store.getSession(s.id))) await deleteSessionFiles(app, s.id);
        clearPendingDelete(s.id);
      })().catch(() => undefined);
    },
  };
}

/** Which guided demo: the date bug (shell only) or the Python project (python3 and git). */
export type DemoKind = "dates" | "python";

/** The guided demo: a session on the demo model over its sample project, with its first prompt sent. */
export async function startDemo(app: AppServices, kind: DemoKind = "dates"): Promise<Session> {
  const { title, files, prompt } =
    kind === "python"
      ? await import("../adapters/demo/python-project").then((m) => ({
          title: "Demo: Python test, fix, commit",
          files: m.PYTHON_DEMO_PROJECT,
          prompt: m.PYTHON_DEMO_PROMPT,
        }))
      : await import("../adapters/demo/sample-project").then((m) => ({ title: "Demo: fix the date bug", files: m.DEMO_PROJECT, prompt: "Fix the date bug" }));
  const session = await app.sessions.createSession({ title, demo: true });
  await app.sandbox.seedWorkspace(session.id, files);
  await app.sessions.prompt(session.id, { text: prompt });
  return session;
}

// The session-changing helpers (fork, revert, snapshot collection) load on first use: the first screen does not need them.

/**
 * A deleted session's files for good: its workspace (saved tool outputs
 * included) and its terminal log, then every snapshot tree and blob no
 * remaining session needs.
 */
export async function deleteSessionFiles(app: Pick<AppServices, "store" | "sandbox">, sessionID: string): Promise<void> {
  const { forgetTerminalLog } = await import("./terminal-log");
  forgetTerminalLog(sessionID);
  await app.sandbox.deleteWorkspace(sessionID);
  const { collectUnusedSnapshots } = await import("./storage-gc");
  await collectUnusedSnapshots(app);
}

/** Bytes the session's workspace uses: its files now, and the history its snapshots keep. */
export async function sessionStorage(app: Pick<AppServices, "store" | "sandbox">, sessionID: string): Promise<{ files: number; history: number }> {
  const session = await app.store.getSession(sessionID);
  const { referencedSnapshots } = await import("../core/snapshot/gc");
  return app.sandbox.usage(sessionID, referencedSnapshots(session, await readOnly(app, sessionID)));
}
