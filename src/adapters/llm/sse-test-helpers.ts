/**
 * Test support for the LLM adapter (imported by tests only): canned SSE
 * bodies in the shapes OpenAI sends, byte-level chunking, and a recording
 * fake `fetch`.
 */
import type { LLMEvent, LLMRequest, ModelConfig } from "../../core/ports/llm";
import { mulberry32 as rng } from "../../testing/prng";

/** Chat Completions stream: `data: {chunk}` lines, then `data: [DONE]`. */
export function sseChat(chunks: object[], done = true): string {
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : "");
}

/** Responses stream: `event: <type>` + `data: {…}` per event, numbered; no `[DONE]`. */
export function sseResponses(events: Array<{ type: string } & Record<string, unknown>>): string {
  return events
    .map((e, i) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`)
    .join("");
}


/** Cuts the UTF-8 bytes of `text` into chunks: fixed `size`, or random 1–`max` sizes from `seed`. */
export function cutBytes(text: string, cut: { size: number } | { seed: number; max: number }): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const next = "size" in cut ? () => cut.size : (() => {
    const r = rng(cut.seed);
    return () => 1 + Math.floor(r() * cut.max);
  })();
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = next();
    out.push(bytes.slice(i, i + n));
    i += n;
  }
  return out;
}

export interface RecordedRequest {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}

export type Reply =
  | { status?: number; headers?: Record<string, string>; chunks: Uint8Array[] }
  | { status: number; headers?: Record<string, string>; body: string }
  | { reject: unknown };

/** A fetch that records each request and answers from `reply`. */
export function fakeFetch(reply: (req: RecordedRequest) => Reply): { fetch: typeof fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const f = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const rawBody = typeof init?.body === "string" ? init.body : "{}";
    const req: RecordedRequest = { url, headers: new Headers(init?.headers), body: JSON.parse(rawBody) };
    requests.push(req);
    const r = reply(req);
    if ("reject" in r) throw r.reject;
    if ("body" in r) return new Response(r.body, { status: r.status, headers: r.headers });
    const chunks = r.chunks;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const c = chunks.shift();
        if (c) controller.enqueue(c);
        else controller.close();
      },
    });
    return new Response(stream, {
      status: r.status ?? 200,
      headers: { "content-type": "text/event-stream", ...r.headers },
    });
  };
  return { fetch: f, requests };
}

export async function collect(events: AsyncIterable<LLMEvent>): Promise<LLMEvent[]> {
  const out: LLMEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

export const TEST_KEY = "sk-test-0123456789abcdefSECRET";

export function modelConfig(over: Partial<ModelConfig> = {}): ModelConfig {
  return {
    provider: "openai-compatible",
    modelID: "llama3.2",
    baseURL: "http://localhost:11434/v1",
    apiKey: TEST_KEY,
    contextWindow: 8192,
    maxOutputTokens: 1024,
    prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    ...over,
  };
}

export function request(over: Partial<LLMRequest> = {}): LLMRequest {
  return {
    model: modelConfig(),
    system: ["You are tabcode.", "Environment: browser."],
    messages: [{ role: "user", content: [{ type: "text", text: "Read a.ts" }] }],
    tools: [
      {
        name: "read",
        description: "Read a file",
        inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    ],
    maxOutputTokens: 512,
    signal: new AbortController().signal,
    cacheKey: "ses_test",
    ...over,
  };
}
