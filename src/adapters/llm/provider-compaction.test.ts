/**
 * Provider-side compaction through the real AI SDK provider packages: the
 * request fields (`context_management`), the compaction item or block in the
 * stream, and sending it back. The stream shapes follow the providers' docs
 * (OpenAI: a `compaction` output item with `encrypted_content`; Anthropic: a
 * `compaction` content block with `compaction_delta`s), as the SDK parses them.
 */
import { describe, expect, it } from "vitest";
import type { LLMMessage } from "../../core/ports/llm";
import { createAiSdkLLM } from "./ai-sdk-llm";
import { collect, cutBytes, fakeFetch, modelConfig, request, sseResponses } from "./sse-test-helpers";

const OPENAI = modelConfig({ provider: "openai", modelID: "gpt-5.1", baseURL: undefined });
const ANTHROPIC = modelConfig({ provider: "anthropic", modelID: "claude-sonnet-4-5", baseURL: undefined });
const response = { id: "resp_1", object: "response", created_at: 1_700_000_000, model: "gpt-5.1", output: [] };

const OPENAI_STREAM = sseResponses([
  { type: "response.created", response: { ...response, status: "in_progress", usage: null } },
  { type: "response.output_item.added", output_index: 0, item: { id: "cmp_1", type: "compaction" } },
  { type: "response.output_item.done", output_index: 0, item: { id: "cmp_1", type: "compaction", encrypted_content: "gAAAA-opaque" } },
  { type: "response.output_item.added", output_index: 1, item: { id: "msg_1", type: "message", role: "assistant", status: "in_progress", content: [] } },
  { type: "response.output_text.delta", item_id: "msg_1", output_index: 1, content_index: 0, delta: "Done." },
  { type: "response.output_item.done", output_index: 1, item: { id: "msg_1", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Done.", annotations: [] }] } },
  { type: "response.completed", response: { ...response, status: "completed", incomplete_details: null, usage: { input_tokens: 90_000, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 90_005 } } },
]);

const sse = (events: object[]) => events.map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
const ANTHROPIC_STREAM = sse([
  { type: "message_start", message: { id: "msg_a", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } },
  { type: "content_block_start", index: 0, content_block: { type: "compaction", content: "", signature: "sig-1" } },
  { type: "content_block_delta", index: 0, delta: { type: "compaction_delta", content: "Summary: the parser was fixed." } },
  { type: "content_block_stop", index: 0 },
  { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Next." } },
  { type: "content_block_stop", index: 1 },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 20 } },
  { type: "message_stop" },
]);

describe("provider-side compaction", () => {
  it("OpenAI: asks for it with context_management, keeps the encrypted item and sends it back as a compaction item", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(OPENAI_STREAM, { size: 97 }) }));
    const llm = createAiSdkLLM({ fetch: ff.fetch });
    const events = await collect(llm.stream(request({ model: OPENAI, providerCompaction: { threshold: 80_000 } })));
    expect(ff.requests[0]?.body.context_management).toEqual([{ type: "compaction", compact_threshold: 80_000 }]);
    const end = events.find((e) => e.type === "text-end" && e.id === "compaction:cmp_1");
    expect(end).toEqual({ type: "text-end", id: "compaction:cmp_1", providerMetadata: { openai: { type: "compaction", itemId: "cmp_1", encryptedContent: "gAAAA-opaque" } } });

    // The stored part (empty text + metadata) goes back on the next request.
    const history: LLMMessage[] = [
      { role: "user", content: [{ type: "text", text: "Fix it" }] },
      { role: "assistant", content: [{ type: "text", text: "", providerMetadata: end?.type === "text-end" ? end.providerMetadata : undefined }, { type: "text", text: "Done." }] },
      { role: "user", content: [{ type: "text", text: "Go on" }] },
    ];
    await collect(llm.stream(request({ model: OPENAI, messages: history })));
    const input = (ff.requests[1]?.body.input ?? []) as Array<Record<string, unknown>>;
    expect(input).toContainEqual({ type: "compaction", id: "cmp_1", encrypted_content: "gAAAA-opaque" });
    expect(ff.requests[1]?.body).not.toHaveProperty("context_management");
  });

  it("Anthropic: the compact_20260112 edit and its beta; the compaction block arrives as text marked compaction and goes back as a block", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(ANTHROPIC_STREAM, { size: 61 }) }));
    const llm = createAiSdkLLM({ fetch: ff.fetch });
    const events = await collect(llm.stream(request({ model: ANTHROPIC, providerCompaction: { threshold: 150_000 } })));
    const first = ff.requests[0];
    expect(first?.body.context_management).toEqual({ edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value: 150_000 } }] });
    expect(first?.headers.get("anthropic-beta")).toContain("compact-2026-01-12");
    const text = events.filter((e) => e.type === "text-delta").map((e) => (e.type === "text-delta" ? e.delta : ""));
    expect(text).toEqual(["Summary: the parser was fixed.", "Next."]);
    const ends = events.filter((e) => e.type === "text-end");
    expect(ends[0]).toMatchObject({ providerMetadata: { anthropic: { type: "compaction", signature: "sig-1" } } });

    const meta = ends[0]?.type === "text-end" ? ends[0].providerMetadata : undefined;
    const history: LLMMessage[] = [
      { role: "user", content: [{ type: "text", text: "Fix it" }] },
      { role: "assistant", content: [{ type: "text", text: "Summary: the parser was fixed.", providerMetadata: meta }, { type: "text", text: "Next." }] },
      { role: "user", content: [{ type: "text", text: "Go on" }] },
    ];
    await collect(llm.stream(request({ model: ANTHROPIC, messages: history })));
    const messages = (ff.requests[1]?.body.messages ?? []) as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(messages[1]?.content[0]).toMatchObject({ type: "compaction", content: "Summary: the parser was fixed.", signature: "sig-1" });
  });

  it("nothing is asked of providers without it, or when the option is off", async () => {
    const ff = fakeFetch(() => ({ chunks: cutBytes(OPENAI_STREAM, { size: 1 << 20 }) }));
    await collect(createAiSdkLLM({ fetch: ff.fetch }).stream(request({ model: OPENAI })));
    expect(ff.requests[0]?.body).not.toHaveProperty("context_management");
  });
});
