/**
 * A synthetic session for the context benchmark: real `MessageWithParts`
 * built from a trace, whose parts carry exact cached token counts
 * (`tokenCount`) instead of real text, so the real history functions
 * (`filterCompacted`, `planPrune`, `selectTail`, `messageTokens`) run on them
 * unchanged. A pruned tool part sends the real placeholder, whose size is
 * estimated like any part without a fresh count.
 */
import { CONTINUE_PROMPT } from "../../src/core/compaction/process";
import type { AssistantMessage, CompactionPart, MessageWithParts, Part, TextPart, ToolPart, UserMessage } from "../../src/core/schema";
import { emptyTokens } from "../../src/core/schema";
import { estimateTokens } from "../../src/core/tokens/counter";
import { cachedCount, MESSAGE_OVERHEAD, modelMessageCount, partCost } from "../../src/core/tokens/part-text";
import type { TraceStep } from "./trace";

/** The pseudo-encoding of the synthetic counts. */
export const SIM_ENCODING = "sim";
const SESSION = "ses_bench";
const MODEL = { providerID: "openai", modelID: "bench" };

/** A run of request tokens that is cached as a unit: same key, same tokens. */
export interface Segment {
  key: string;
  tokens: number;
}

/** The stored messages of one session, in order, with the bookkeeping the simulator needs. */
export class SimSession {
  readonly msgs: MessageWithParts[] = [];
  private seq = 0;
  private readonly where = new Map<string, { m: MessageWithParts; j: number }>();
  private readonly segCache = new WeakMap<MessageWithParts, Segment[]>();

  private id(prefix: "msg" | "prt"): string {
    return `${prefix}_${(this.seq++).toString().padStart(10, "0")}`;
  }

  private push(info: MessageWithParts["info"], make: ((messageID: string) => Part)[]): MessageWithParts {
    const m: MessageWithParts = { info, parts: [] };
    for (const f of make) {
      const p = f(info.id);
      this.where.set(p.id, { m, j: m.parts.length });
      m.parts.push(p);
    }
    this.msgs.push(m);
    return m;
  }

  /** A text part whose cached count says `tokens`. */
  private text(tokens: number, extra: Partial<TextPart> = {}): (messageID: string) => Part {
    return (messageID) => ({ id: this.id("prt"), sessionID: SESSION, messageID, type: "text", text: "t", tokenCount: { encoding: SIM_ENCODING, count: tokens, size: 1 }, ...extra });
  }

  private userInfo(now: number): UserMessage {
    return { id: this.id("msg"), sessionID: SESSION, role: "user", time: { created: now }, agent: "build", model: MODEL };
  }

  user(tokens: number, now: number): MessageWithParts {
    return this.push(this.userInfo(now), [this.text(tokens)]);
  }

  /** One finished step: its written tokens and its tool results; `request`/`cached` are what the provider reported. */
  step(s: TraceStep, parentID: string, now: number, usage: { request: number; cached: number }): MessageWithParts {
    const info: AssistantMessage = {
      id: this.id("msg"),
      sessionID: SESSION,
      role: "assistant",
      parentID,
      time: { created: now, completed: now },
      modelID: MODEL.modelID,
      providerID: MODEL.providerID,
      agent: "build",
      cost: 0,
      tokens: { ...emptyTokens(), input: usage.request - usage.cached, output: s.output, cache: { read: usage.cached, write: 0 } },
      finish: s.tools.length ? "tool-calls" : "stop",
    };
    const parts: ((messageID: string) => Part)[] = [];
    if (s.output > 0) parts.push(this.text(s.output));
    for (const t of s.tools) {
      parts.push((messageID) => {
        const id = this.id("prt");
        const part: ToolPart = {
          id,
          sessionID: SESSION,
          messageID,
          type: "tool",
          callID: `call_${id}`,
          tool: t.tool,
          state: { status: "completed", input: {}, output: "o", title: t.tool, metadata: {}, time: { start: now, end: now } },
        };
        const cost = partCost(part, "assistant");
        if (cost.kind === "text") part.tokenCount = { encoding: SIM_ENCODING, count: t.tokens, size: cost.text.length };
        return part;
      });
    }
    return this.push(info, parts);
  }

  /** A finished compaction: the request (with its tail), the summary and the synthetic "continue" message. */
  summary(tokens: number, tailStartID: string | undefined, now: number): void {
    const request = this.userInfo(now);
    const compaction = (messageID: string): CompactionPart => ({ id: this.id("prt"), sessionID: SESSION, messageID, type: "compaction", auto: true, ...(tailStartID ? { tail_start_id: tailStartID } : {}) });
    this.push(request, [compaction]);
    const info: AssistantMessage = {
      id: this.id("msg"),
      sessionID: SESSION,
      role: "assistant",
      parentID: request.id,
      time: { created: now, completed: now },
      modelID: MODEL.modelID,
      providerID: MODEL.providerID,
      agent: "compaction",
      summary: true,
      cost: 0,
      tokens: emptyTokens(),
      finish: "stop",
    };
    this.push(info, [this.text(tokens)]);
    this.push(this.userInfo(now), [(messageID) => ({ id: this.id("prt"), sessionID: SESSION, messageID, type: "text", text: CONTINUE_PROMPT, synthetic: true, metadata: { compaction_continue: true } })]);
  }

  /** Marks tool outputs as pruned (what `applyPrune` persists). */
  prune(parts: ToolPart[], now: number): void {
    for (const p of parts) {
      const at = this.where.get(p.id);
      const cur = at?.m.parts[at.j];
      if (!at || cur?.type !== "tool" || cur.state.status !== "completed" || cur.state.time.compacted) continue;
      at.m.parts[at.j] = { ...cur, state: { ...cur.state, time: { ...cur.state.time, compacted: now } } };
      this.segCache.delete(at.m);
    }
  }

  /**
   * What a message adds to a request, part by part (message overhead first),
   * mirroring `messageTokens` / `planRequestSize`: a pruned part gets a new
   * key, so the provider cache sees the change from that part on.
   */
  segments(m: MessageWithParts): Segment[] {
    const hit = this.segCache.get(m);
    if (hit) return hit;
    const costs = m.parts.map((p) => partCost(p, m.info.role));
    const n = modelMessageCount(m, costs);
    const out: Segment[] = [];
    if (n > 0) {
      out.push({ key: m.info.id, tokens: n * MESSAGE_OVERHEAD });
      costs.forEach((c, i) => {
        const p = m.parts[i];
        if (!p || c.kind === "none") return;
        const tokens = c.kind === "fixed" ? c.tokens : (cachedCount(p, c.text, SIM_ENCODING) ?? estimateTokens(c.text));
        const pruned = p.type === "tool" && p.state.status === "completed" && p.state.time.compacted !== undefined;
        out.push({ key: pruned ? `${p.id}~` : p.id, tokens });
      });
    }
    this.segCache.set(m, out);
    return out;
  }

  /** Tokens of a list of messages. */
  size(msgs: MessageWithParts[]): number {
    let n = 0;
    for (const m of msgs) for (const s of this.segments(m)) n += s.tokens;
    return n;
  }
}
