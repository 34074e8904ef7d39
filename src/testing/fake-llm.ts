import type { LLM, LLMEvent, LLMRequest, LLMUsage } from "../core/ports/llm";

/** One scripted step: events to emit, or a function of the request. */
export type FakeTurn = LLMEvent[] | ((req: LLMRequest) => LLMEvent[]);

/**
 * A fake implementing the LLM port: replays scripted turns and records every
 * request. Honours the abort signal between events; `gate` lets a test pause
 * the stream at an event index.
 */
export class FakeLLM implements LLM {
  readonly requests: LLMRequest[] = [];
  /** Title requests (answered with `titleText`, never from the script). */
  readonly titleRequests: LLMRequest[] = [];
  private turns: FakeTurn[] = [];
  /** Per-event delay in ms (0 = yield to the event loop only). */
  delayMs = 0;
  /** Title calls are answered separately and not counted as turns. */
  titleText = "Fake title";

  constructor(turns: FakeTurn[] = []) {
    this.turns = [...turns];
  }

  push(...turns: FakeTurn[]): void {
    this.turns.push(...turns);
  }

  remaining(): number {
    return this.turns.length;
  }

  async *stream(req: LLMRequest): AsyncIterable<LLMEvent> {
    if (req.purpose === "title") {
      this.titleRequests.push(req);
      yield* [{ type: "text-delta", id: "t", delta: this.titleText } as const, { type: "finish", reason: "stop", usage: {} } as const];
      return;
    }
    this.requests.push(req);
    const turn = this.turns.shift();
    const events = turn === undefined ? textTurn("(no scripted turn)") : typeof turn === "function" ? turn(req) : turn;
    for (const ev of events) {
      if (req.signal.aborted) return;
      await new Promise((r) => setTimeout(r, this.delayMs));
      if (req.signal.aborted) return;
      yield ev;
    }
  }
}

export function textTurn(text: string, usage: LLMUsage = { inputTokens: 100, outputTokens: 20 }): LLMEvent[] {
  const chunks = text.match(/.{1,8}/gs) ?? [text];
  return [
    { type: "text-start", id: "1" },
    ...chunks.map((delta) => ({ type: "text-delta" as const, id: "1", delta })),
    { type: "text-end", id: "1" },
    { type: "finish", reason: "stop", usage },
  ];
}

export function toolTurn(calls: { tool: string; input: unknown; callID?: string }[], usage: LLMUsage = { inputTokens: 100, outputTokens: 10 }): LLMEvent[] {
  const events: LLMEvent[] = [];
  calls.forEach((c, i) => {
    const callID = c.callID ?? `call_${i}_${Math.random().toString(36).slice(2, 8)}`;
    const json = JSON.stringify(c.input);
    events.push({ type: "tool-input-start", callID, tool: c.tool });
    events.push({ type: "tool-input-delta", callID, delta: json });
    events.push({ type: "tool-call", callID, tool: c.tool, input: json });
  });
  events.push({ type: "finish", reason: "tool-calls", usage });
  return events;
}
