/**
 * The builder every history importer writes into: messages and parts are added
 * in the source's order with fresh ascending ids, then {@link finishDraft}
 * validates each record on its own. A record that fails is reported with its
 * source location and skipped; the rest of the session is kept.
 */
import { ascendingId, descendingId } from "../ids";
import { describeIssues } from "../export/issues";
import { sessionTotals } from "../export/totals";
import { costOf } from "../conversation/usage";
import { lookupModel } from "../model-table";
import { emptyTokens, Message, type MessageWithParts, Part, Session, type Tokens } from "../schema";
import type { HistorySession, ImportIssue, SourceRef } from "./types";

/** The directory imported sessions live in here (their files are not carried). */
export const IMPORT_DIRECTORY = "/workspace";

type Obj = Record<string, unknown>;

interface DraftMessage {
  id: string;
  at: string;
  info: Obj;
  parts: { at: string; body: Obj }[];
}

export interface DraftModel {
  providerID: string;
  modelID: string;
}

export class Draft {
  readonly id: string;
  title = "";
  updated: number;
  parentSourceID?: string;
  /** The source's own update time when it records one (otherwise the newest record's time). */
  sourceUpdated?: number;
  readonly messages: DraftMessage[] = [];
  readonly byId = new Map<string, DraftMessage>();
  private lastUser?: string;

  constructor(
    readonly source: Omit<SourceRef, "updated" | "importedAt">,
    readonly created: number,
    readonly at: string,
  ) {
    this.id = descendingId("ses", created);
    this.updated = created;
  }

  /** Starts a user turn; returns its message id. */
  user(at: string, time: number, opts: { agent?: string; model?: DraftModel } = {}): string {
    const id = ascendingId("msg", time);
    const m: DraftMessage = {
      id,
      at,
      info: { id, sessionID: this.id, role: "user", time: { created: time }, agent: opts.agent ?? "build", model: opts.model ?? { providerID: "unknown", modelID: "unknown" } },
      parts: [],
    };
    this.push(m, time);
    this.lastUser = id;
    return id;
  }

  /** Starts an assistant answer to the latest user turn (one is made up when the source starts with an answer). */
  assistant(at: string, time: number, model: DraftModel, opts: { agent?: string; summary?: boolean } = {}): string {
    const parentID = this.lastUser ?? this.user(at, time);
    const id = ascendingId("msg", time);
    const info: Obj = {
      id,
      sessionID: this.id,
      role: "assistant",
      parentID,
      time: { created: time, completed: time },
      modelID: model.modelID,
      providerID: model.providerID,
      agent: opts.agent ?? "build",
      cost: 0,
      tokens: emptyTokens(),
      finish: "stop",
    };
    if (opts.summary) info.summary = true;
    this.push({ id, at, info, parts: [] }, time);
    return id;
  }

  /** Adds a part (without ids) to a message. */
  part(messageID: string, at: string, body: Obj): Obj {
    const m = this.byId.get(messageID);
    const full: Obj = { ...body, id: ascendingId("prt"), sessionID: this.id, messageID };
    m?.parts.push({ at, body: full });
    return full;
  }

  /** Patches a message's info (finish, tokens, completion time…). */
  setInfo(messageID: string, patch: Obj, time?: number): void {
    const m = this.byId.get(messageID);
    if (!m) return;
    Object.assign(m.info, patch);
    if (time !== undefined) this.touch(time);
  }

  /** Marks an assistant message completed at `time` (never before it was created), with the finish reason. */
  complete(messageID: string, time: number, finish?: string): void {
    const m = this.byId.get(messageID);
    if (!m) return;
    const t = m.info.time as { created: number; completed?: number };
    t.completed = Math.max(time, t.created);
    if (finish) m.info.finish = finish;
    this.touch(time);
  }

  /**
   * Adds a step's usage: a step-finish part and the message's last-step tokens. Without a cost from the
   * source (Claude Code, Codex and Gemini record none), it is priced as tabcode prices its own steps: from
   * the model table; a model the table does not know has its price unknown, never $0.
   */
  usage(messageID: string, at: string, tokens: Tokens | Obj, cost?: number): void {
    let priced = cost ?? 0;
    let priceUnknown = false;
    if (cost === undefined) {
      const spec = lookupModel(String(this.byId.get(messageID)?.info.modelID ?? ""));
      const t = tokens as Tokens;
      const counted = [t.input, t.output, t.reasoning, t.cache?.read, t.cache?.write].every((n) => typeof n === "number" && Number.isFinite(n));
      if (spec && counted) priced = costOf(t, spec.prices);
      else priceUnknown = true;
    }
    this.part(messageID, at, { type: "step-finish", reason: "stop", cost: priced, tokens, ...(priceUnknown ? { priceUnknown } : {}) });
    this.setInfo(messageID, { tokens, cost: Number((this.byId.get(messageID)?.info.cost ?? 0)) + priced });
  }

  /** A compaction in the source: a user turn asking for it (which says whose it was) and the summary as the answer. */
  summary(at: string, time: number, text: string, model: DraftModel): void {
    const u = this.user(at, time);
    this.part(u, at, { type: "compaction", auto: true, origin: this.source.tool });
    const a = this.assistant(at, time, model, { summary: true });
    this.part(a, at, { type: "text", text });
  }

  touch(time: number): void {
    if (Number.isFinite(time) && time > this.updated) this.updated = time;
  }

  private push(m: DraftMessage, time: number): void {
    this.messages.push(m);
    this.byId.set(m.id, m);
    this.touch(time);
  }
}

function closeTool(part: Obj, end: number): Obj {
  const state = part.state as Obj | undefined;
  if (!state || (state.status !== "pending" && state.status !== "running")) return part;
  const start = typeof (state.time as Obj | undefined)?.start === "number" ? ((state.time as Obj).start as number) : end;
  const input = typeof state.input === "object" && state.input !== null && !Array.isArray(state.input) ? state.input : {};
  return {
    ...part,
    state: { status: "error", input, error: "No result was recorded for this call.", metadata: { interrupted: true }, time: { start, end: Math.max(start, end) } },
  };
}

/**
 * Snapshot hashes name the other tool's snapshots, which do not exist here: a
 * step's `snapshot` is dropped and a `patch` part (whose hash revert and fork
 * would restore from) becomes a note listing the changed files.
 */
function localRefs(part: Obj): Obj {
  if (part.type === "patch") {
    const files = Array.isArray(part.files) ? part.files.filter((f): f is string => typeof f === "string") : [];
    const { hash: _hash, files: _files, ...rest } = part;
    return { ...rest, type: "text", text: `Changed ${files.length} file${files.length === 1 ? "" : "s"}: ${files.join(", ")}`, synthetic: true };
  }
  if ((part.type === "step-start" || part.type === "step-finish") && "snapshot" in part) {
    const { snapshot: _snapshot, ...rest } = part;
    return rest;
  }
  return part;
}

/**
 * Validates every message and part of a draft. Bad records become issues and
 * are skipped; an answer whose question was skipped follows the previous kept
 * question. Tool calls still open in the source become errors (never "running").
 * Returns `undefined` when nothing of the session survived.
 */
export function finishDraft(d: Draft, issues: ImportIssue[], importedAt: number): HistorySession | undefined {
  const messages: MessageWithParts[] = [];
  let lastUser: string | undefined;
  const kept = new Set<string>();
  for (const m of d.messages) {
    if (m.info.role === "assistant" && typeof m.info.parentID === "string" && !kept.has(m.info.parentID)) {
      if (!lastUser) {
        issues.push({ at: m.at, problem: "an answer whose question could not be imported was skipped" });
        continue;
      }
      m.info.parentID = lastUser;
    }
    const info = Message.safeParse(m.info);
    if (!info.success) {
      issues.push({ at: m.at, problem: describeIssues("message", info.error, m.info) });
      continue;
    }
    const end = info.data.role === "assistant" ? (info.data.time.completed ?? info.data.time.created) : info.data.time.created;
    const parts: Part[] = [];
    for (const p of m.parts) {
      const body = localRefs(p.body.type === "tool" ? closeTool(p.body, end) : p.body);
      const part = Part.safeParse(body);
      if (part.success) parts.push(part.data);
      else issues.push({ at: p.at, problem: describeIssues("part", part.error, body) });
    }
    kept.add(info.data.id);
    if (info.data.role === "user") lastUser = info.data.id;
    messages.push({ info: info.data, parts });
  }
  if (messages.length === 0) {
    issues.push({ at: d.at, problem: "the session has no message that could be imported" });
    return undefined;
  }
  const totals = sessionTotals(messages);
  const firstText = messages.flatMap((m) => m.parts).find((p) => p.type === "text" && !p.synthetic);
  const fallback = firstText?.type === "text" ? oneLine(firstText.text) : "";
  const raw = {
    id: d.id,
    title: oneLine(d.title) || fallback || "Imported session",
    directory: IMPORT_DIRECTORY,
    version: d.source.version ?? "unknown",
    time: { created: d.created, updated: Math.max(d.updated, d.created) },
    tokens: totals.tokens,
    cost: totals.cost,
    unpriced: totals.unpriced,
    source: { ...d.source, updated: d.sourceUpdated ?? d.updated, importedAt },
  };
  const info = Session.safeParse(raw);
  if (!info.success) {
    issues.push({ at: d.at, problem: describeIssues("session", info.error, raw) });
    return undefined;
  }
  const out: HistorySession = { info: info.data, messages };
  if (d.parentSourceID !== undefined) out.parentSourceID = d.parentSourceID;
  return out;
}

/** A title from free text: first line, at most 80 characters. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
