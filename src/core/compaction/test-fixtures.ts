/** Message builders for compaction and token tests (test-only). */
import { ascendingId, descendingId } from "../ids";
import type { AssistantMessage, MessageWithParts, NamedErrorData, Part, Session, ToolPart, UserMessage } from "../schema";
import { emptyTokens } from "../schema";

type Ids = { id: string; sessionID: string; messageID: string };
/** A part without its ids, filled in when attached to a message. */
export type PartInit = (ids: Ids) => Part;

export const MODEL = { providerID: "openai", modelID: "gpt-4o" };

export function makeSession(id = descendingId("ses")): Session {
  return { id, title: "t", directory: "/workspace", version: "test", time: { created: 1, updated: 1 }, tokens: emptyTokens(), cost: 0, agent: "build", model: MODEL };
}

export const text =
  (t: string, extra: { synthetic?: boolean; ignored?: boolean } = {}): PartInit =>
  (ids) => ({ ...ids, type: "text", text: t, ...extra });

export const reasoning =
  (t: string): PartInit =>
  (ids) => ({ ...ids, type: "reasoning", text: t, time: { start: 1, end: 2 } });

export const file =
  (mime: string, filename: string, url = `data:${mime};base64,AAAA`): PartInit =>
  (ids) => ({ ...ids, type: "file", mime, filename, url });

export const compaction =
  (auto: boolean, extra: { overflow?: boolean; tail_start_id?: string } = {}): PartInit =>
  (ids) => ({ ...ids, type: "compaction", auto, ...extra });


export interface ToolOpts {
  compacted?: number;
  status?: "completed" | "error" | "running";
  attachments?: { mime: string; filename?: string; url: string }[];
  tokenCount?: Part["tokenCount"];
}

export const tool =
  (name: string, input: Record<string, unknown>, output: string, o: ToolOpts = {}): PartInit =>
  (ids) => {
    const base = { ...ids, type: "tool" as const, callID: `call_${ids.id.slice(-8)}`, tool: name, ...(o.tokenCount ? { tokenCount: o.tokenCount } : {}) };
    if (o.status === "error") return { ...base, state: { status: "error", input, error: output, time: { start: 1, end: 2 } } };
    if (o.status === "running") return { ...base, state: { status: "running", input, time: { start: 1 } } };
    const time = o.compacted ? { start: 1, end: 2, compacted: o.compacted } : { start: 1, end: 2 };
    const part: ToolPart = { ...base, state: { status: "completed", input, output, title: name, metadata: {}, time, ...(o.attachments ? { attachments: o.attachments } : {}) } };
    return part;
  };

/** Builds a chronological session history with time-sortable ids. */
export class History {
  readonly msgs: MessageWithParts[] = [];
  constructor(readonly sessionID = descendingId("ses")) {}

  private attach(messageID: string, parts: PartInit[]): Part[] {
    return parts.map((p) => p({ id: ascendingId("prt"), sessionID: this.sessionID, messageID }));
  }

  user(...parts: PartInit[]): MessageWithParts & { info: UserMessage } {
    const info: UserMessage = { id: ascendingId("msg"), sessionID: this.sessionID, role: "user", time: { created: 1 }, agent: "build", model: MODEL };
    const m = { info, parts: this.attach(info.id, parts) };
    this.msgs.push(m);
    return m;
  }

  assistant(parts: PartInit[], o: { summary?: boolean; finish?: string; error?: NamedErrorData; parent?: string } = {}): MessageWithParts & { info: AssistantMessage } {
    const parent = o.parent ?? [...this.msgs].reverse().find((m) => m.info.role === "user")?.info.id ?? "msg_none";
    const info: AssistantMessage = {
      id: ascendingId("msg"),
      sessionID: this.sessionID,
      role: "assistant",
      parentID: parent,
      time: { created: 1, completed: 2 },
      modelID: MODEL.modelID,
      providerID: MODEL.providerID,
      agent: o.summary ? "compaction" : "build",
      cost: 0,
      tokens: emptyTokens(),
      finish: o.error ? undefined : (o.finish ?? "stop"),
      ...(o.summary ? { summary: true } : {}),
      ...(o.error ? { error: o.error } : {}),
    };
    const m = { info, parts: this.attach(info.id, parts) };
    this.msgs.push(m);
    return m;
  }

  /** A user turn answered by one assistant message. */
  turn(userText: string, parts: PartInit[]): void {
    this.user(text(userText));
    this.assistant(parts);
  }
}

/** A string of exactly `tokens × 4` characters (so `estimateTokens` gives `tokens`). */
export function sized(tokens: number, ch = "x"): string {
  return ch.repeat(tokens * 4);
}

/**
 * "Summarise up to here" on turn one's answer: turns one, two and three, then the compaction request (its
 * kept tail starting at "two") and its summary, written after the kept turns but read before them.
 */
export function keptTailHistory(summary = "S") {
  const h = new History();
  h.turn("one", [text("a1")]);
  const two = h.user(text("two"));
  const a2 = h.assistant([text("a2")]);
  h.turn("three", [text("a3")]);
  const c = h.user(compaction(false, { tail_start_id: two.info.id }));
  const s = h.assistant([text(summary)], { summary: true, parent: c.info.id });
  return { h, two, a2, c, s };
}
