import { isReadableURL, unreadablePlaceholder } from "../conversation/to-model";
import { z } from "../zod";
import { Message, type MessageWithParts, Part, type Session, Session as SessionSchema } from "../schema";
import { base64ToBytes } from "./base64";
import { describeIssues, kindOf, show } from "./issues";
import { isObject, openCodeMessage, openCodePart, openCodeSession } from "./opencode";
import { sessionTotals, unpricedSteps } from "./totals";
import type { ImportedSession, Result, WorkspaceFile } from "./types";

/** State shared by the sessions of one file: ids seen so far and warnings. */
export interface ValidateContext {
  seen: Set<string>;
  warnings: string[];
}

const WorkspaceFileSchema = z.object({ encoding: z.enum(["utf8", "base64"]), data: z.string() });

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

function duplicate(ctx: ValidateContext, at: string, id: string, what: string): string | undefined {
  if (!ctx.seen.has(id)) {
    ctx.seen.add(id);
    return undefined;
  }
  return `${at}: duplicate ${what} id ${show(id)} (it appears earlier in the file)`;
}

/**
 * Validates one `{info, messages:[{info, parts}]}` object. `prefix` is where it
 * sits in the file (`""` or `sessions[2].`), so every message names the exact
 * field. Nothing is written here.
 */
export function validateSession(raw: unknown, prefix: string, kind: "tabcode" | "opencode", ctx: ValidateContext): Result<ImportedSession> {
  const p = prefix;
  if (!isObject(raw)) return fail(`${p.replace(/[.:\s]+$/, "") || "file"}: expected an object with info and messages, got ${kindOf(raw)}`);
  if (raw.info === undefined) return fail(`${p}info: required field is missing (expected the session object)`);
  if (!Array.isArray(raw.messages)) return fail(`${p}messages: expected an array of {info, parts}, got ${raw.messages === undefined ? "nothing" : kindOf(raw.messages)}`);
  const infoIn = kind === "opencode" ? openCodeSession(raw.info) : raw.info;
  const parsed = SessionSchema.safeParse(infoIn);
  if (!parsed.success) return fail(describeIssues(`${p}info`, parsed.error, infoIn));
  const dupSession = duplicate(ctx, `${p}info.id`, parsed.data.id, "session");
  if (dupSession) return fail(dupSession);
  const info = sanitizeSession(parsed.data, p, ctx);

  const messages: MessageWithParts[] = [];
  const users = new Set<string>();
  for (let i = 0; i < raw.messages.length; i++) {
    const at = `${p}messages[${i}]`;
    const m: unknown = raw.messages[i];
    if (!isObject(m)) return fail(`${at}: expected an object with info and parts, got ${kindOf(m)}`);
    if (m.info === undefined) return fail(`${at}.info: required field is missing (expected the message object)`);
    const msgIn = kind === "opencode" ? openCodeMessage(m.info) : m.info;
    const msg = Message.safeParse(msgIn);
    if (!msg.success) return fail(describeIssues(`${at}.info`, msg.error, msgIn));
    const mi = msg.data;
    if (mi.sessionID !== info.id) return fail(`${at}.info.sessionID: ${show(mi.sessionID)} does not match the session id ${show(info.id)}`);
    const dupMsg = duplicate(ctx, `${at}.info.id`, mi.id, "message");
    if (dupMsg) return fail(dupMsg);
    if (mi.role === "assistant" && !users.has(mi.parentID))
      return fail(`${at}.info.parentID: ${show(mi.parentID)} is not a user message earlier in this session`);
    if (mi.role === "user") users.add(mi.id);
    if (!Array.isArray(m.parts)) return fail(`${at}.parts: expected an array of parts, got ${m.parts === undefined ? "nothing" : kindOf(m.parts)}`);
    const parts = validateParts(m.parts, `${at}.parts`, mi.id, info.id, kind, mi.time.created, ctx);
    if (!parts.ok) return parts;
    messages.push({ info: mi, parts: parts.value });
  }

  if (kind === "opencode") Object.assign(info, sessionTotals(messages));
  // A file written before the row counted its unpriced steps: counted here, where every message is at hand.
  else if (info.unpriced === undefined) info.unpriced = unpricedSteps(messages);
  if (info.revert && !messages.some((m) => m.info.id === info.revert?.messageID)) {
    ctx.warnings.push(`${p}info.revert: points to a message that is not in the file; the revert state was dropped.`);
    delete info.revert;
  }
  const out: ImportedSession = { info, messages };
  if (kind === "tabcode" && raw.workspace !== undefined) {
    const ws = validateWorkspace(raw.workspace, `${p}workspace`);
    if (!ws.ok) return ws;
    out.workspace = ws.value;
  }
  return { ok: true, value: out };
}

function validateParts(
  raws: unknown[],
  at: string,
  messageID: string,
  sessionID: string,
  kind: "tabcode" | "opencode",
  created: number,
  ctx: ValidateContext,
): Result<Part[]> {
  const parts: Part[] = [];
  for (let j = 0; j < raws.length; j++) {
    const here = `${at}[${j}]`;
    const partIn = kind === "opencode" ? openCodePart(raws[j], created) : raws[j];
    if (partIn === undefined) {
      const type = isObject(raws[j]) ? (raws[j] as Record<string, unknown>).type : undefined;
      ctx.warnings.push(`${here}: dropped a part of a type this app does not know (${show(type)}).`);
      continue;
    }
    const part = Part.safeParse(partIn);
    if (!part.success) return fail(describeIssues(here, part.error, partIn));
    const pd = part.data;
    if (pd.messageID !== messageID) return fail(`${here}.messageID: ${show(pd.messageID)} does not match its message id ${show(messageID)}`);
    if (pd.sessionID !== sessionID) return fail(`${here}.sessionID: ${show(pd.sessionID)} does not match the session id ${show(sessionID)}`);
    const dup = duplicate(ctx, `${here}.id`, pd.id, "part");
    if (dup) return fail(dup);
    if (pd.type === "file" && !isReadableURL(pd.url)) {
      // Kept as words, so the history still says what was attached, and every later request can be sent.
      ctx.warnings.push(`${here}.url: the attachment ${show(pd.filename ?? pd.mime)} has no readable data; it was replaced by a note.`);
      parts.push({ id: pd.id, sessionID: pd.sessionID, messageID: pd.messageID, type: "text", text: unreadablePlaceholder(pd.mime, pd.filename), synthetic: true });
      continue;
    }
    parts.push(settleTool(pd, here, created, ctx));
  }
  return { ok: true, value: parts };
}

/** A tool call exported while it ran can never finish here: it is imported as interrupted, never as running or pending. */
function settleTool(part: Part, at: string, created: number, ctx: ValidateContext): Part {
  if (part.type !== "tool" || (part.state.status !== "running" && part.state.status !== "pending")) return part;
  const s = part.state;
  const start = s.status === "running" ? s.time.start : created;
  const metadata = s.status === "running" ? { ...s.metadata, interrupted: true } : { interrupted: true };
  ctx.warnings.push(`${at}: the ${part.tool} call was still ${s.status} when the file was made; it was imported as interrupted.`);
  return {
    ...part,
    state: { status: "error", input: s.input, error: "Interrupted: this tool was still running when the session was exported.", metadata, time: { start, end: start } },
  };
}

/**
 * Imported files are untrusted: session rules that *allow* anything are dropped
 * (they would let an imported session run tools without asking); `ask`/`deny`
 * rules only restrict and are kept. Transient run state is cleared.
 */
function sanitizeSession(info: Session, p: string, ctx: ValidateContext): Session {
  const out: Session = { ...info, time: { ...info.time } };
  if (out.permission) {
    const kept = out.permission.filter((r) => r.action !== "allow");
    if (kept.length < out.permission.length)
      ctx.warnings.push(`${p}info.permission: ${out.permission.length - kept.length} "allow" rule(s) were not imported; the session asks instead.`);
    if (kept.length) out.permission = kept;
    else delete out.permission;
  }
  return out;
}

function validateWorkspace(raw: unknown, at: string): Result<Record<string, WorkspaceFile>> {
  if (!isObject(raw)) return fail(`${at}: expected an object of files by path, got ${kindOf(raw)}`);
  const out: Record<string, WorkspaceFile> = {};
  for (const [path, file] of Object.entries(raw)) {
    const here = `${at}[${JSON.stringify(path.slice(0, 80))}]`;
    if (path === "" || path.length > 1024 || path.includes("\0") || path.split(/[\\/]/).includes(".."))
      return fail(`${here}: not an acceptable file path (empty, too long, or containing ".." or NUL)`);
    const parsed = WorkspaceFileSchema.safeParse(file);
    if (!parsed.success) return fail(describeIssues(here, parsed.error, file));
    if (parsed.data.encoding === "base64" && base64ToBytes(parsed.data.data) === undefined) return fail(`${here}.data: not valid base64`);
    Object.defineProperty(out, path, { value: parsed.data, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value: out };
}
