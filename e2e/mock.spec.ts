// The mock OpenAI server's own tests: raw wire shapes over Node fetch, the real AI SDK provider
// parsing them, and a browser page (cross-origin isolated) calling it with CORS.
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, streamText, tool } from "ai";
import { z } from "zod";
import { openApp } from "./app";
import { expect, test } from "./fixtures";
import { json, parseSse, post, readFrames } from "./mock-openai/client";
import type { ErrorStatus } from "./mock-openai/script";

const chatBody = (extra: Record<string, unknown> = {}) => ({
  model: "gpt-4o-mini",
  stream: true,
  stream_options: { include_usage: true },
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});

type Chunk = {
  choices: { delta: Record<string, unknown>; finish_reason: string | null }[];
  usage: Record<string, unknown> | null;
};

async function chatChunks(url: string, body: unknown): Promise<{ chunks: Chunk[]; done: boolean }> {
  const res = await post(`${url}/v1/chat/completions`, body);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const frames = parseSse(await res.text());
  const done = frames.at(-1)?.data === "[DONE]";
  return { chunks: frames.filter((f) => f.data !== "[DONE]").map((f) => json(f) as unknown as Chunk), done };
}

test.describe("chat completions", () => {
  test("streams text in small deltas, then finish, usage and [DONE]", async ({ mock }) => {
    const text = "Hello there, this is a longer answer that must arrive in several pieces.";
    mock.setScript([{ text, usage: { input: 120, output: 16, cached: 64, reasoning: 0 } }]);
    const { chunks, done } = await chatChunks(mock.url, chatBody());
    expect(done).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "", refusal: null });
    const contents = chunks
      .map((c) => c.choices[0]?.delta.content)
      .filter((c): c is string => typeof c === "string" && c !== "");
    expect(contents.length).toBeGreaterThan(5);
    expect(contents.join("")).toBe(text);
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    expect(finish?.choices[0]?.finish_reason).toBe("stop");
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({
      prompt_tokens: 120,
      completion_tokens: 16,
      total_tokens: 136,
      prompt_tokens_details: { cached_tokens: 64 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
    expect(mock.requests).toHaveLength(1);
    expect(mock.requests[0]?.headers.authorization).toBe("Bearer sk-test-0123456789abcdef");
    expect(mock.requests[0]?.body).toMatchObject({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
  });

  test("sends no usage chunk unless stream_options.include_usage", async ({ mock }) => {
    mock.setScript([{ text: "ok" }]);
    const { chunks } = await chatChunks(mock.url, chatBody({ stream_options: undefined }));
    expect(chunks.every((c) => c.choices.length === 1 && c.usage === null)).toBe(true);
  });

  test("streams reasoning_content before the content", async ({ mock }) => {
    mock.setScript([{ reasoning: "Think first.", text: ["A", "B"] }]);
    const { chunks } = await chatChunks(mock.url, chatBody());
    const kinds = chunks.slice(1, -2).map((c) => Object.keys(c.choices[0]?.delta ?? {})[0]);
    expect(kinds).toEqual(["reasoning_content", "reasoning_content", "content", "content"]);
  });

  test("streams a tool call: header with id and empty arguments, then argument pieces", async ({ mock }) => {
    const args = { path: "src/app.ts", offset: 10 };
    mock.setScript([
      {
        toolCalls: [
          { name: "read", args, id: "call_abc" },
          { name: "ls", args: {} },
        ],
      },
    ]);
    const { chunks } = await chatChunks(mock.url, chatBody());
    const first = chunks[0]?.choices[0]?.delta;
    expect(first).toMatchObject({ role: "assistant", content: null });
    expect(first?.tool_calls).toEqual([
      { index: 0, id: "call_abc", type: "function", function: { name: "read", arguments: "" } },
    ]);
    type Call = { index: number; id?: string; function: { name?: string; arguments: string } };
    const calls = chunks.flatMap((c) => (c.choices[0]?.delta.tool_calls as Call[] | undefined) ?? []);
    const argsOf = (i: number) =>
      calls.filter((c) => c.index === i && c.id === undefined).map((c) => c.function.arguments);
    expect(argsOf(0).length).toBeGreaterThan(2);
    expect(JSON.parse(argsOf(0).join(""))).toEqual(args);
    expect(calls.find((c) => c.index === 1 && c.id)?.function.name).toBe("ls");
    expect(JSON.parse(argsOf(1).join(""))).toEqual({});
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe("tool_calls");
  });

  test("answers non-streamed requests with a chat.completion body", async ({ mock }) => {
    mock.setScript([{ text: "Title", usage: { input: 5, output: 1 } }]);
    const res = await post(`${mock.url}/v1/chat/completions`, { model: "m", messages: [] });
    const body = await res.json();
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "m",
      choices: [{ message: { role: "assistant", content: "Title" }, finish_reason: "stop" }],
    });
    expect(body.usage.total_tokens).toBe(6);
  });
});

test.describe("script", () => {
  test("turns are consumed in order across both endpoints, then a default answer", async ({ mock }) => {
    mock.setScript([{ text: "one" }, { text: "two" }]);
    const a = await chatChunks(mock.url, chatBody());
    expect(a.chunks.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("one");
    const res = await post(`${mock.url}/v1/responses`, { model: "gpt-5-mini", input: "x" });
    expect((await res.json()).output[0].content[0].text).toBe("two");
    expect(mock.remaining()).toBe(0);
    const c = await chatChunks(mock.url, chatBody());
    expect(c.chunks.map((x) => x.choices[0]?.delta.content ?? "").join("")).toBe("(mock) no scripted turn left");
    expect(mock.modelRequests().map((r) => r.path)).toEqual([
      "/v1/chat/completions",
      "/v1/responses",
      "/v1/chat/completions",
    ]);
  });

  test("lists models", async ({ mock }) => {
    const res = await fetch(`${mock.baseURL}/models`);
    const body = await res.json();
    expect(body.object).toBe("list");
    expect(body.data.map((m: { id: string }) => m.id)).toContain("gpt-4o-mini");
  });
});

test.describe("errors", () => {
  const cases: { status: ErrorStatus; code: string | null; message: RegExp }[] = [
    {
      status: 400,
      code: "context_length_exceeded",
      message:
        /^This model's maximum context length is 128000 tokens\. However, your messages resulted in \d+ tokens\./,
    },
    { status: 401, code: "invalid_api_key", message: /^Incorrect API key provided: sk-test-\*+cdef\./ },
    {
      status: 404,
      code: "model_not_found",
      message: /^The model `gpt-4o-mini` does not exist or you do not have access to it\.$/,
    },
    { status: 429, code: "rate_limit_exceeded", message: /^Rate limit reached for gpt-4o-mini/ },
    { status: 500, code: null, message: /server had an error/ },
    { status: 503, code: null, message: /overloaded/ },
  ];
  for (const c of cases) {
    test(`${c.status} has OpenAI's error shape`, async ({ mock }) => {
      mock.setScript([{ error: { status: c.status } }]);
      const res = await post(`${mock.url}/v1/chat/completions`, chatBody());
      expect(res.status).toBe(c.status);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const body = await res.json();
      expect(Object.keys(body.error).sort()).toEqual(["code", "message", "param", "type"]);
      expect(body.error.code).toBe(c.code);
      expect(body.error.message).toMatch(c.message);
      if (c.status === 429) {
        expect(res.headers.get("retry-after")).toBe("1");
        expect(res.headers.get("retry-after-ms")).toBe("100");
      }
    });
  }

  test("the Responses API has its own context-length message; body and headers can be replaced", async ({ mock }) => {
    mock.setScript([
      { error: { status: 400 } },
      { error: { status: 429, body: { error: { message: "slow down" } }, headers: { "retry-after": "7" } } },
    ]);
    const a = await post(`${mock.url}/v1/responses`, { model: "gpt-5-mini", input: "x", stream: true });
    expect((await a.json()).error).toMatchObject({ code: "context_length_exceeded", param: "input" });
    const b = await post(`${mock.url}/v1/responses`, { model: "gpt-5-mini", input: "x", stream: true });
    expect(b.headers.get("retry-after")).toBe("7");
    expect(await b.json()).toEqual({ error: { message: "slow down" } });
  });
});

test.describe("transport faults", () => {
  test("cutAfterChunks destroys the socket after n events", async ({ mock }) => {
    mock.setScript([{ cutAfterChunks: 3, text: "one two three four five six" }]);
    const res = await post(`${mock.url}/v1/chat/completions`, chatBody());
    const got: string[] = [];
    const read = (async () => {
      for await (const f of readFrames(res)) got.push(f.data);
    })();
    await expect(read).rejects.toThrow();
    expect(got).toHaveLength(3);
    expect(got).not.toContain("[DONE]");
  });

  test("malformed inserts one invalid JSON event and the stream goes on", async ({ mock }) => {
    mock.setScript([{ malformed: true, text: "alpha beta gamma" }]);
    const res = await post(`${mock.url}/v1/chat/completions`, chatBody());
    const frames = parseSse(await res.text());
    const bad = frames.filter((f) => {
      if (f.data === "[DONE]") return false;
      try {
        JSON.parse(f.data);
        return false;
      } catch {
        return true;
      }
    });
    expect(bad).toHaveLength(1);
    expect(frames.indexOf(bad[0] ?? { data: "" })).toBe(2);
    expect(frames.at(-1)?.data).toBe("[DONE]");
  });

  test("hangAfterChunks stops sending but keeps the connection open", async ({ mock }) => {
    mock.setScript([{ hangAfterChunks: 2, text: "one two three four" }]);
    const abort = new AbortController();
    const res = await post(
      `${mock.url}/v1/responses`,
      { model: "gpt-5-mini", input: "x", stream: true },
      { signal: abort.signal },
    );
    const it = readFrames(res);
    const first = await it.next();
    const second = await it.next();
    expect([first.value?.event, second.value?.event]).toEqual(["response.created", "response.in_progress"]);
    const next = it.next();
    const outcome = await Promise.race([
      next.then(() => "data"),
      new Promise((r) => setTimeout(() => r("silent"), 400)),
    ]);
    expect(outcome).toBe("silent");
    abort.abort();
    await expect(next).rejects.toThrow();
  });
});

test.describe("responses API", () => {
  test("streams reasoning summary, message and function call items, then usage", async ({ mock }) => {
    mock.setScript([
      {
        reasoning: "Look at the file.",
        text: "Reading it now.",
        toolCalls: [{ name: "read", args: { path: "a.ts" } }],
        usage: { input: 300, output: 40, cached: 256, reasoning: 12 },
      },
    ]);
    const res = await post(`${mock.url}/v1/responses`, { model: "gpt-5-mini", input: "x", stream: true, store: false });
    const frames = parseSse(await res.text());
    const events = frames.map((f) => json(f));
    frames.forEach((f, i) => {
      expect(f.event).toBe(events[i]?.type);
      expect(events[i]?.sequence_number).toBe(i);
    });
    const order = [...new Set(events.map((e) => e.type))];
    expect(order).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.reasoning_summary_part.added",
      "response.reasoning_summary_text.delta",
      "response.reasoning_summary_text.done",
      "response.reasoning_summary_part.done",
      "response.output_item.done",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.completed",
    ]);
    const text = events.filter((e) => e.type === "response.output_text.delta").map((e) => e.delta);
    expect(text.join("")).toBe("Reading it now.");
    const call = events
      .filter((e) => e.type === "response.output_item.done")
      .map((e) => e.item as Record<string, unknown>)[2];
    expect(call).toMatchObject({
      type: "function_call",
      name: "read",
      status: "completed",
      arguments: '{"path":"a.ts"}',
    });
    expect(String(call?.call_id)).toMatch(/^call_/);
    const done = events.at(-1)?.response as Record<string, unknown>;
    expect(done.store).toBe(false);
    expect(done.usage).toEqual({
      input_tokens: 300,
      input_tokens_details: { cached_tokens: 256 },
      output_tokens: 40,
      output_tokens_details: { reasoning_tokens: 12 },
      total_tokens: 340,
    });
  });

  test("finish: length ends with response.incomplete", async ({ mock }) => {
    mock.setScript([{ text: "cut sh", finish: "length" }]);
    const res = await post(`${mock.url}/v1/responses`, { model: "gpt-5-mini", input: "x", stream: true });
    const last = json(parseSse(await res.text()).at(-1));
    expect(last.type).toBe("response.incomplete");
    expect(last.response).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
  });
});

test.describe("CORS", () => {
  test("preflight allows the headers the browser asks for", async ({ mock }) => {
    const res = await fetch(`${mock.baseURL}/chat/completions`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:4317",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, x-custom-thing",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toBe("POST, GET, OPTIONS");
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(res.headers.get("access-control-expose-headers")).toContain("retry-after-ms");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").split(", ");
    expect(allowed).toEqual(
      expect.arrayContaining(["authorization", "content-type", "x-stainless-os", "x-custom-thing"]),
    );
    expect(mock.preflights).toBe(1);
    expect(mock.requests).toHaveLength(0);
  });

  test("a cross-origin-isolated page can stream from the mock", async ({ page, mock }) => {
    mock.setScript([{ text: "from the browser", chunkDelayMs: 5 }]);
    // WebContainer's page (the app moves off it unless WebContainer is chosen; nothing here opens a sandbox).
    await openApp(page);
    await page.evaluate(async () => {
      const s = (globalThis as unknown as { __tabcode: { settings: { get(): Record<string, unknown>; set(v: unknown): Promise<void> } } }).__tabcode.settings;
      await s.set({ ...s.get(), sandbox: "webcontainer" });
    });
    await page.goto("/isolated/");
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
    const text = await page.evaluate(async (url) => {
      const res = await fetch(url, {
        method: "POST",
        headers: { authorization: "Bearer sk-browser", "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", stream: true, messages: [] }),
      });
      return res.text();
    }, `${mock.baseURL}/chat/completions`);
    const deltas = parseSse(text)
      .filter((f) => f.data !== "[DONE]")
      .map((f) => json(f) as unknown as Chunk);
    expect(deltas.map((c) => c.choices[0]?.delta.content ?? "").join("")).toBe("from the browser");
    expect(mock.preflights).toBe(1);
    expect(mock.requests[0]?.headers.authorization).toBe("Bearer sk-browser");
  });
});

test.describe("AI SDK against the mock", () => {
  const tools = { read: tool({ description: "Read a file", inputSchema: z.object({ path: z.string() }) }) };

  for (const api of ["chat", "responses"] as const) {
    test(`${api}: text deltas, tool call and usage parse`, async ({ mock }) => {
      mock.setScript([
        {
          text: "Let me read that file.",
          toolCalls: [{ name: "read", args: { path: "src/a.ts" } }],
          usage: { input: 200, output: 30, cached: 128, reasoning: 0 },
        },
      ]);
      const openai = createOpenAI({ baseURL: mock.baseURL, apiKey: "sk-test-sdk" });
      const errors: unknown[] = [];
      const result = streamText({
        model: api === "chat" ? openai.chat("gpt-4o-mini") : openai("gpt-4o-mini"),
        prompt: "read src/a.ts",
        tools,
        maxRetries: 0,
        providerOptions: { openai: { store: false } },
        onError: ({ error }) => {
          errors.push(error);
        },
      });
      const deltas: string[] = [];
      for await (const part of result.stream) if (part.type === "text-delta") deltas.push(part.text);
      expect(errors).toEqual([]);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join("")).toBe("Let me read that file.");
      const calls = await result.toolCalls;
      expect(calls.map((c) => [c.toolName, c.input])).toEqual([["read", { path: "src/a.ts" }]]);
      expect(await result.finishReason).toBe("tool-calls");
      const usage = await result.usage;
      expect(usage.inputTokens).toBe(200);
      expect(usage.outputTokens).toBe(30);
      expect(usage.inputTokenDetails.cacheReadTokens).toBe(128);
      const sent = mock.requests[0];
      expect(sent?.path).toBe(api === "chat" ? "/v1/chat/completions" : "/v1/responses");
      expect(sent?.headers.authorization).toBe("Bearer sk-test-sdk");
    });
  }

  test("responses: reasoning summary arrives as reasoning deltas", async ({ mock }) => {
    mock.setScript([
      { reasoning: "Consider the options.", text: "Done.", usage: { input: 10, output: 8, reasoning: 5 } },
    ]);
    const openai = createOpenAI({ baseURL: mock.baseURL, apiKey: "sk-test-sdk" });
    const result = streamText({
      model: openai("gpt-5-mini"),
      prompt: "x",
      maxRetries: 0,
      providerOptions: { openai: { store: false } },
      onError: () => {},
    });
    const reasoning: string[] = [];
    for await (const part of result.stream) if (part.type === "reasoning-delta") reasoning.push(part.text);
    expect(reasoning.join("")).toBe("Consider the options.");
    expect((await result.usage).outputTokenDetails.reasoningTokens).toBe(5);
  });

  test("errors surface as APICallError with OpenAI's message; 429 is retried after retry-after-ms", async ({
    mock,
  }) => {
    mock.setScript([{ error: { status: 429 } }, { text: "after retry" }, { error: { status: 401 } }]);
    const openai = createOpenAI({ baseURL: mock.baseURL, apiKey: "sk-test-0123456789abcdef" });
    const ok = streamText({ model: openai.chat("gpt-4o-mini"), prompt: "x", maxRetries: 1, onError: () => {} });
    expect(await ok.text).toBe("after retry");
    const errors: unknown[] = [];
    const bad = streamText({
      model: openai.chat("gpt-4o-mini"),
      prompt: "x",
      maxRetries: 0,
      onError: ({ error }) => void errors.push(error),
    });
    await bad.consumeStream();
    const err = errors[0];
    expect(APICallError.isInstance(err)).toBe(true);
    if (APICallError.isInstance(err)) {
      expect(err.statusCode).toBe(401);
      expect(err.message).toMatch(/^Incorrect API key provided/);
    }
    expect(mock.modelRequests()).toHaveLength(3);
  });
});
