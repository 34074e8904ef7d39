/**
 * Record-replay for the providers with their own wire formats: Anthropic
 * Messages, Gemini, OpenAI Responses and xAI Responses (fixtures cited in
 * e2e/fixtures/providers/MANIFEST.md).
 */
import { describe, expect, it } from "vitest";
import { SERVER_APPROVAL_MESSAGE } from "../../core/session/step";
import { recordedChunks } from "../../testing/replay";
import { recordedTool, replaySession, splitResponses } from "../../testing/replay-harness";
import { ANTHROPIC_BROWSER_HEADER } from "./model-factory";

type Obj = Record<string, unknown>;
const arr = (v: unknown) => (Array.isArray(v) ? (v as Obj[]) : []);

describe("Anthropic (@ai-sdk/anthropic)", () => {
  it("sends the browser header, cache_control on the system prompt and the last two messages, and a tool result after tool_use", async () => {
    const r = await replaySession({
      provider: "anthropic",
      modelID: "claude-sonnet-4-5",
      tools: [recordedTool("updateIssueList")],
      steps: [
        { format: "anthropic", lines: recordedChunks("anthropic/anthropic-tool-no-args.chunks.txt") },
        { format: "anthropic", lines: recordedChunks("anthropic/anthropic-text.chunks.txt") },
      ],
    });
    const [first, second] = r.requests;
    expect(first?.url).toBe("https://replay.test/v1/messages");
    expect(first?.headers.get("anthropic-dangerous-direct-browser-access")).toBe(ANTHROPIC_BROWSER_HEADER["anthropic-dangerous-direct-browser-access"]);
    expect(first?.headers.get("x-api-key")).toBe("test-key-0123456789");
    const system = arr(first?.body.system);
    expect(system[0]?.cache_control).toEqual({ type: "ephemeral" });
    expect(r.tools[0]?.state.status).toBe("completed");
    const sent = arr(second?.body.messages);
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    // The last two messages carry the breakpoint (on their last content block).
    for (const m of sent.slice(-2)) expect(arr(m.content).at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    expect(arr(sent[0]?.content).at(-1)?.cache_control).toBeUndefined();
    expect(arr(sent[2]?.content)[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP" });
  });

  it("cache write and read tokens come from cache_creation_input_tokens / cache_read_input_tokens; code execution shows as cards", async () => {
    const r = await replaySession({ provider: "anthropic", modelID: "claude-sonnet-4-5", steps: [{ format: "anthropic", lines: recordedChunks("anthropic/anthropic-code-execution-20260120-prompt-cache.1.chunks.txt") }] });
    const tokens = r.assistants[0]?.info.tokens;
    expect(tokens?.cache.write).toBeGreaterThan(0);
    expect(tokens?.cache.read).toBe(6289);
    const cards = r.tools.filter((t) => t.metadata?.providerExecuted === true);
    expect(cards.map((t) => t.tool)).toEqual(["code_execution", "code_execution"]);
    expect(cards[0]?.state.status === "completed" && cards[0].state.output).toContain("1: 1");
    expect(r.assistants[0]?.info.finish).toBe("stop");
  });

  it("a thinking block's signature is stored and sent back with it on the next request", async () => {
    const r = await replaySession({
      provider: "anthropic",
      modelID: "claude-sonnet-4-5",
      prompts: ["Divide by 5", "Thanks"],
      steps: [
        { format: "anthropic", lines: recordedChunks("anthropic/anthropic-clear-thinking.1.chunks.txt") },
        { format: "anthropic", lines: recordedChunks("anthropic/anthropic-text.chunks.txt") },
      ],
    });
    expect(r.reasoning).toContain("925");
    const assistant = arr(r.requests[1]?.body.messages).find((m) => m.role === "assistant");
    const thinking = arr(assistant?.content).find((c) => c.type === "thinking");
    expect(thinking?.thinking).toBe(r.reasoning);
    expect(String(thinking?.signature)).toMatch(/^EvQBCkYICxgCKkAxhD4N/);
  });

  it("a refusal ends the step with the provider's reason kept", async () => {
    const r = await replaySession({ provider: "anthropic", modelID: "claude-sonnet-4-5", steps: [{ format: "anthropic", lines: recordedChunks("anthropic/anthropic-refusal.chunks.txt") }] });
    const finish = r.assistants[0]?.parts.find((p) => p.type === "step-finish");
    expect(r.assistants[0]?.info.finish).toBe("content-filter");
    expect(finish?.type === "step-finish" && finish.rawReason).toBe("refusal");
  });
});

describe("Google Gemini (@ai-sdk/google)", () => {
  it("a function call's thoughtSignature is sent back with it after the tool ran", async () => {
    const r = await replaySession({
      provider: "google",
      modelID: "gemini-3-pro-preview",
      tools: [recordedTool("weather")],
      steps: [
        { format: "gemini", lines: recordedChunks("google/google-tool-call.chunks.txt") },
        { format: "gemini", lines: recordedChunks("google/google-text.chunks.txt") },
      ],
    });
    expect(r.requests[0]?.url).toBe("https://replay.test/v1/models/gemini-3-pro-preview:streamGenerateContent?alt=sse");
    expect(r.tools[0]?.state.status).toBe("completed");
    const contents = arr(r.requests[1]?.body.contents);
    const call = contents.flatMap((c) => arr(c.parts)).find((p) => "functionCall" in p);
    expect(String(call?.thoughtSignature)).toMatch(/^EqUCCqICAb4/);
    expect(contents.flatMap((c) => arr(c.parts)).some((p) => "functionResponse" in p)).toBe(true);
    expect(r.assistants[0]?.info.tokens.reasoning).toBe(45);
  });

  it("hidden thinking: the text is shown, thought tokens counted as reasoning, the text's thought signature kept", async () => {
    const r = await replaySession({ provider: "google", modelID: "gemini-3-pro-preview", steps: [{ format: "gemini", lines: recordedChunks("google/google-reasoning.chunks.txt") }] });
    expect(r.text).toContain("strawberry");
    expect(r.assistants[0]?.info.tokens.reasoning).toBe(256);
    const text = r.assistants[0]?.parts.find((p) => p.type === "text");
    expect(JSON.stringify(text?.type === "text" ? text.metadata : {})).toContain("thoughtSignature");
  });
});

describe("OpenAI Responses (@ai-sdk/openai)", () => {
  it("encrypted reasoning and item ids go back with the function call, with store: false and prompt_cache_key", async () => {
    const [step1, , , last] = splitResponses(recordedChunks("openai-responses/openai-reasoning-encrypted-content.1.chunks.txt"));
    const r = await replaySession({
      provider: "openai",
      modelID: "gpt-5-mini",
      tools: [recordedTool("calculator", "42")],
      steps: [
        { format: "responses", lines: step1 ?? [] },
        { format: "responses", lines: last ?? [] },
      ],
    });
    expect(r.tools[0]?.state.status).toBe("completed");
    const [first, second] = r.requests;
    expect(first?.body).toMatchObject({ store: false, include: ["reasoning.encrypted_content"] });
    expect(typeof first?.body.prompt_cache_key).toBe("undefined"); // not api.openai.com
    const input = arr(second?.body.input);
    const reasoning = input.find((i) => i.type === "reasoning");
    expect(String(reasoning?.encrypted_content)).toMatch(/^gAAAAA/);
    expect(String(reasoning?.id)).toMatch(/^rs_/);
    const call = input.find((i) => i.type === "function_call");
    expect(call).toMatchObject({ name: "calculator" });
    expect(input.indexOf(reasoning ?? {})).toBeLessThan(input.indexOf(call ?? {}));
    expect(input.some((i) => i.type === "function_call_output" && i.output === "42")).toBe(true);
  });

  it("web search calls become cards, never dropped", async () => {
    const r = await replaySession({ provider: "openai", modelID: "gpt-5-mini", steps: [{ format: "responses", lines: recordedChunks("openai-responses/openai-web-search-tool.1.chunks.txt") }] });
    const cards = r.tools.filter((t) => t.metadata?.providerExecuted === true);
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.every((c) => c.tool === "web_search")).toBe(true);
    expect(r.text.length).toBeGreaterThan(0);
    expect(r.assistants[0]?.info.finish).toBe("stop");
  });

  it("an MCP approval request shows as a card saying tabcode cannot grant it, and the turn ends", async () => {
    const r = await replaySession({ provider: "openai", modelID: "gpt-5-mini", steps: [{ format: "responses", lines: recordedChunks("openai-responses/openai-mcp-tool-approval.1.chunks.txt") }] });
    const card = r.tools.find((t) => t.metadata?.approvalRequested === true);
    expect(card?.state.status === "error" && card.state.error).toBe(SERVER_APPROVAL_MESSAGE);
    expect(r.requests).toHaveLength(1);
  });

  it("code interpreter and image generation become cards", async () => {
    for (const file of ["openai-code-interpreter-tool.1.chunks.txt", "openai-image-generation-tool.1.chunks.txt"]) {
      const r = await replaySession({ provider: "openai", modelID: "gpt-5-mini", steps: [{ format: "responses", lines: recordedChunks(`openai-responses/${file}`) }] });
      expect(r.tools.filter((t) => t.metadata?.providerExecuted === true).length, file).toBeGreaterThan(0);
    }
  });

  it("an error event keeps the provider's message", async () => {
    const r = await replaySession({ provider: "openai", modelID: "gpt-5-nano", steps: [{ format: "responses", lines: recordedChunks("openai-responses/openai-error.1.chunks.txt") }] });
    expect(r.assistants[0]?.info.error).toBeDefined();
    expect(String(r.assistants[0]?.info.error?.data.message).length).toBeGreaterThan(10);
  });
});

describe("xAI (@ai-sdk/xai, Responses)", () => {
  it("web search: the answer, its cards, usage with cached and reasoning tokens", async () => {
    const r = await replaySession({ provider: "xai", modelID: "grok-4-fast", steps: [{ format: "responses", lines: recordedChunks("xai/xai-web-search-tool.1.chunks.txt") }] });
    expect(r.text).toContain("Explainable AI");
    expect(r.assistants[0]?.info.error).toBeUndefined();
    expect(r.assistants[0]?.info.tokens.cache.read).toBe(1578);
    expect(r.assistants[0]?.info.tokens.reasoning).toBe(397);
  });
});
