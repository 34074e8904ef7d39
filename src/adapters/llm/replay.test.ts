/**
 * Record-replay: real recorded provider streams (e2e/fixtures/providers,
 * cited in MANIFEST.md) through each preset's own AI SDK package, the real
 * adapter and the real session loop. Multi-step cases check the request body
 * of the step after the tool call: what each provider needs sent back.
 */
import { describe, expect, it } from "vitest";
import { recordedChunks } from "../../testing/replay";
import { recordedTool, replaySession } from "../../testing/replay-harness";

type Obj = Record<string, unknown>;
const msgs = (body: Obj) => (body.messages ?? []) as Obj[];

describe("DeepSeek (@ai-sdk/deepseek)", () => {
  it("thinking + tool call: the tool runs and the next request carries reasoning_content", async () => {
    const r = await replaySession({
      provider: "deepseek",
      modelID: "deepseek-reasoner",
      tools: [recordedTool("weather")],
      steps: [
        { format: "chat", lines: recordedChunks("deepseek/deepseek-tool-call.chunks.txt") },
        { format: "chat", lines: recordedChunks("deepseek/deepseek-reasoning.chunks.txt") },
      ],
    });
    expect(r.left).toBe(0);
    expect(r.tools[0]?.state.status).toBe("completed");
    expect(r.reasoning).toContain("weather");
    const assistant = msgs(r.requests[1]?.body ?? {}).find((m) => m.role === "assistant");
    expect(typeof assistant?.reasoning_content).toBe("string");
    expect(String(assistant?.reasoning_content)).toContain("weather");
    expect(assistant?.tool_calls).toEqual([expect.objectContaining({ function: expect.objectContaining({ name: "weather" }) })]);
    expect(msgs(r.requests[1]?.body ?? {}).some((m) => m.role === "tool" && String(m.content).includes("Sunny"))).toBe(true);
    // Cached prompt tokens come from DeepSeek's own usage fields.
    expect(r.assistants[0]?.info.tokens.cache.read).toBe(320);
    expect(r.assistants[1]?.info.finish).toBe("stop");
  });
});

describe("Mistral (@ai-sdk/mistral)", () => {
  it("a tool call without `index` runs and its result goes back", async () => {
    const r = await replaySession({
      provider: "mistral",
      modelID: "mistral-small-latest",
      tools: [recordedTool("weather")],
      steps: [
        { format: "chat", lines: recordedChunks("mistral/mistral-tool-call.chunks.txt") },
        { format: "chat", lines: recordedChunks("mistral/mistral-text.chunks.txt") },
      ],
    });
    expect(r.tools.map((t) => [t.tool, t.state.status])).toEqual([["weather", "completed"]]);
    expect(r.tools[0]?.state.input).toEqual({ location: "San Francisco" });
    const sent = msgs(r.requests[1]?.body ?? {});
    expect(sent.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(r.assistants[1]?.info.finish).toBe("stop");
    expect(r.text.length).toBeGreaterThan(0);
  });

  it("magistral's array content: thinking becomes reasoning, text stays text", async () => {
    const r = await replaySession({ provider: "mistral", modelID: "magistral-medium-2507", steps: [{ format: "chat", lines: recordedChunks("mistral/mistral-reasoning.chunks.txt") }] });
    expect(r.reasoning).toBe("The user is asking for 2+2. This is basic arithmetic. 2+2=4.");
    expect(r.text).toBe("2 + 2 = 4");
    expect(r.assistants[0]?.info.error).toBeUndefined();
    expect(r.assistants[0]?.info.finish).toBe("stop");
  });

  it("incremental tool-call deltas with cached tokens", async () => {
    const r = await replaySession({
      provider: "mistral",
      modelID: "mistral-medium",
      tools: [recordedTool("webSearchTool")],
      steps: [
        { format: "chat", lines: recordedChunks("mistral/mistral-incremental-tool-call.chunks.txt") },
        { format: "chat", lines: recordedChunks("mistral/mistral-text.chunks.txt") },
      ],
    });
    expect(r.tools[0]?.state.input).toEqual({ query: "current Berlin weather" });
    expect(r.tools[0]?.state.status).toBe("completed");
    expect(r.assistants[0]?.info.tokens.cache.read).toBe(128);
  });
});

describe("OpenRouter (@openrouter/ai-sdk-provider)", () => {
  it("an in-stream error chunk ends the step with the provider's own message, after the partial text", async () => {
    const r = await replaySession({ provider: "openrouter", modelID: "openai/gpt-3.5-turbo", steps: [{ format: "chat", lines: recordedChunks("openrouter/openrouter-mid-stream-error.chunks.txt") }] });
    expect(r.text).toBe("The tallest building would need");
    const error = r.assistants[0]?.info.error;
    expect(error).toBeDefined();
    expect(JSON.stringify(error)).toContain("Provider disconnected unexpectedly");
  });
});

describe("Groq (@ai-sdk/groq)", () => {
  it("a tool call runs and the result goes back", async () => {
    const r = await replaySession({
      provider: "groq",
      modelID: "llama-3.3-70b-versatile",
      tools: [recordedTool("weather")],
      steps: [
        { format: "chat", lines: recordedChunks("groq/groq-tool-call.chunks.txt") },
        { format: "chat", lines: recordedChunks("mistral/mistral-text.chunks.txt") },
      ],
    });
    expect(r.tools[0]?.state.status).toBe("completed");
    expect(msgs(r.requests[1]?.body ?? {}).map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(r.assistants[0]?.info.tokens.input).toBe(210);
  });
});

describe("OpenAI-compatible (@ai-sdk/openai-compatible)", () => {
  it("reads reasoning_content and sends it back after a tool call", async () => {
    const r = await replaySession({
      provider: "openai-compatible",
      modelID: "grok-3-mini",
      tools: [recordedTool("weather")],
      steps: [
        { format: "chat", lines: recordedChunks("xai/xai-tool-call.chunks.txt") },
        { format: "chat", lines: recordedChunks("xai/xai-text.chunks.txt") },
      ],
    });
    expect(r.reasoning.length).toBeGreaterThan(20);
    expect(r.tools[0]?.state.status).toBe("completed");
    const assistant = msgs(r.requests[1]?.body ?? {}).find((m) => m.role === "assistant");
    expect(String(assistant?.reasoning_content)).toBe(r.assistants[0]?.parts.find((p) => p.type === "reasoning")?.text);
    expect(r.assistants[0]?.info.tokens.cache.read).toBe(290);
  });

  it("tool calls that end with finish_reason \"stop\" still continue the turn (the result is sent back)", async () => {
    const stop: [string, string] = ['"finish_reason":"tool_calls"', '"finish_reason":"stop"'];
    const r = await replaySession({
      provider: "openai-compatible",
      modelID: "mistral-small-latest",
      tools: [recordedTool("weather")],
      steps: [
        { format: "chat", lines: recordedChunks("mistral/mistral-tool-call.chunks.txt", [stop]) },
        { format: "chat", lines: recordedChunks("mistral/mistral-text.chunks.txt") },
      ],
    });
    expect(r.assistants[0]?.info.finish).toBe("stop");
    expect(r.tools[0]?.state.status).toBe("completed");
    expect(r.requests).toHaveLength(2);
    expect(msgs(r.requests[1]?.body ?? {}).some((m) => m.role === "tool")).toBe(true);
  });

  it("a bad chunk in the middle is reported, and the text, usage and finish after it still count", async () => {
    const lines = recordedChunks("mistral/mistral-text.chunks.txt");
    const bad = '{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":42}}]}';
    const r = await replaySession({ provider: "openai-compatible", modelID: "m", steps: [{ format: "chat", lines: [...lines.slice(0, 2), bad, ...lines.slice(2)] }] });
    const finish = r.assistants[0]?.parts.find((p) => p.type === "step-finish");
    expect(r.assistants[0]?.info.error).toBeUndefined();
    expect(r.assistants[0]?.info.finish).toBe("stop");
    expect(finish?.type === "step-finish" && finish.warnings?.[0]).toContain("could not read");
    // Said once: the error's own "could not be read" is not repeated after it.
    expect(finish?.type === "step-finish" && finish.warnings?.[0]?.match(/could not (be )?read/g)).toHaveLength(1);
    expect(r.assistants[0]?.info.tokens.input).toBeGreaterThan(0);
  });
});
