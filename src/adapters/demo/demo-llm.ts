/**
 * The built-in demo model: a deterministic, scripted agent behind the LLM
 * port, so a first-time user with no API key can watch the whole session
 * mechanism do real work on the sample project (`sample-project.ts`):
 * reasoning, streamed text, tool calls one per step, a todo list, usage with
 * cache reads, compaction summaries. It keeps no state: each call decides from
 * the request alone (`script.ts`), like a real model.
 */
import { namedError } from "../../core/errors";
import type { LLM, LLMEvent, LLMRequest, LLMUsage } from "../../core/ports/llm";
import type { Reply } from "./env";
import { decide } from "./script";
import { demoSummary, demoTitle } from "./summary";

/** Milliseconds between streamed events by default: a realistic reading pace. */
export const DEMO_DELAY_MS = 12;

const tokens = (chars: number) => Math.ceil(chars / 4);

/** The request's size in characters: system prompt, history and tool schemas. */
export function requestChars(req: Pick<LLMRequest, "system" | "messages" | "tools">): number {
  return req.system.join("\n").length + JSON.stringify(req.messages).length + JSON.stringify(req.tools).length;
}

/**
 * The prefix the provider would have cached: everything before the newest
 * assistant message (the previous step's request). Caches work in 128-token
 * blocks from 1,024 tokens on, like OpenAI's.
 */
function cachedTokens(req: LLMRequest): number {
  let last = -1;
  req.messages.forEach((m, i) => {
    if (m.role === "assistant") last = i;
  });
  if (last < 0) return 0;
  const prefix = tokens(requestChars({ ...req, messages: req.messages.slice(0, last) }));
  return prefix >= 1024 ? Math.floor(prefix / 128) * 128 : 0;
}

/** Word-sized pieces that join back to `text`. */
export function words(text: string): string[] {
  return text.split(/(?<=\s)(?=\S)/).filter((w) => w.length > 0);
}

function textEvents(id: string, text: string, kind: "text" | "reasoning"): LLMEvent[] {
  if (!text) return [];
  if (kind === "reasoning")
    return [{ type: "reasoning-start", id }, ...words(text).map((delta) => ({ type: "reasoning-delta" as const, id, delta })), { type: "reasoning-end", id }];
  return [{ type: "text-start", id }, ...words(text).map((delta) => ({ type: "text-delta" as const, id, delta })), { type: "text-end", id }];
}

/** A short, stable call id from the history (unique per step of a session). */
function callID(req: LLMRequest): string {
  let h = 0x811c9dc5;
  const s = JSON.stringify(req.messages);
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return `call_demo_${req.messages.length}_${(h >>> 0).toString(16).padStart(8, "0")}`;
}

function replyEvents(req: LLMRequest, reply: Reply, inputTokens: number): LLMEvent[] {
  const events = [...textEvents("r0", reply.reasoning, "reasoning"), ...textEvents("t0", reply.text, "text")];
  let toolChars = 0;
  if (reply.call) {
    const id = callID(req);
    const input = JSON.stringify(reply.call.input);
    toolChars = input.length;
    events.push({ type: "tool-input-start", callID: id, tool: reply.call.tool });
    for (const delta of input.match(/[\s\S]{1,16}/g) ?? []) events.push({ type: "tool-input-delta", callID: id, delta });
    events.push({ type: "tool-call", callID: id, tool: reply.call.tool, input });
  }
  const reasoningTokens = tokens(reply.reasoning.length);
  const usage: LLMUsage = {
    inputTokens,
    cacheReadTokens: Math.min(cachedTokens(req), inputTokens),
    outputTokens: reasoningTokens + tokens(reply.text.length + toolChars),
    reasoningTokens,
  };
  events.push({ type: "finish", reason: reply.call ? "tool-calls" : "stop", usage });
  return events;
}

function plainText(text: string, inputTokens: number): LLMEvent[] {
  return [...textEvents("t0", text, "text"), { type: "finish", reason: "stop", usage: { inputTokens, outputTokens: tokens(text.length) } }];
}

/** Every event of the answer to `req`, finish included. */
export function demoEvents(req: LLMRequest): LLMEvent[] {
  const inputTokens = tokens(requestChars(req));
  switch (req.purpose) {
    case "title":
      return plainText(demoTitle(req), inputTokens);
    case "summary":
      return plainText(demoSummary(req), inputTokens);
    case "test":
      return plainText("OK", inputTokens);
    default:
      return replyEvents(req, decide(req, inputTokens), inputTokens);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** The demo LLM. `delayMs` paces the stream (0 in tests). Stops as soon as the request's signal aborts. */
export function createDemoLLM(delayMs = DEMO_DELAY_MS): LLM {
  return {
    async *stream(req) {
      let events: LLMEvent[];
      try {
        events = demoEvents(req);
      } catch (e) {
        yield { type: "error", error: namedError("UnknownError", { message: `Demo model: ${e instanceof Error ? e.message : String(e)}` }) };
        return;
      }
      for (const ev of events) {
        await pause(delayMs, req.signal);
        if (req.signal.aborted) return;
        yield ev;
      }
    },
  };
}
