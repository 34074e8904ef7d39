import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import { overflowAt } from "../compaction/overflow";
import { providerCompactionRequest } from "../compaction/provider-policy";
import { conversationView } from "../conversation/view";
import type { LLMEvent } from "../ports/llm";

const OPAQUE = { openai: { type: "compaction", itemId: "cmp_1", encryptedContent: "gAAAA-opaque" } };

/** A step in which the provider compacted (the adapter's shape: an empty text part carrying the item), then answered. */
const compactedTurn = (): LLMEvent[] => [
  { type: "text-start", id: "compaction:cmp_1" },
  { type: "text-end", id: "compaction:cmp_1", providerMetadata: OPAQUE },
  ...textTurn("Answer after the provider's compaction."),
];

describe("provider-side compaction in the loop", () => {
  it("asks the provider (below tabcode's own point), keeps its item, and sends only what follows it", async () => {
    const llm = new FakeLLM([textTurn("first"), compactedTurn(), textTurn("third")]);
    const { service, store, settings } = makeTestService({ llm, tools: [], settings: { provider: "openai", modelID: "gpt-5", compaction: { auto: true, prune: true, threshold: 1, provider: true } } });
    const s = await service.createSession();
    for (const text of ["one", "two", "three"]) {
      await service.prompt(s.id, { text });
      await service.ensureRunning(s.id);
    }
    const model = { provider: "openai" as const, contextWindow: 400_000, maxOutputTokens: 128_000 };
    const threshold = Math.floor(overflowAt(model, settings) * 0.9);
    expect(llm.requests.map((r) => r.providerCompaction)).toEqual([{ threshold }, { threshold }, { threshold }]);
    // The third request starts at the prompt the compacted answer belongs to: the provider ignores what came before.
    const third = llm.requests[2]?.messages ?? [];
    const texts = third.map((m) => (m.role === "tool" ? "" : m.content.map((c) => (c.type === "text" ? c.text : "")).join("|")));
    expect(texts).toEqual(["two", "|Answer after the provider's compaction.", "three"]);
    const back = third[1]?.role === "assistant" ? third[1].content[0] : undefined;
    expect(back).toEqual({ type: "text", text: "", providerMetadata: OPAQUE });
    // The stored conversation is unchanged; only what is sent changed.
    const session = await store.getSession(s.id);
    const view = conversationView(session, await store.messages(s.id));
    expect(view.shown).toHaveLength(6);
    expect(view.sent.length).toBeLessThan(view.shown.length);
  });

  it("off by default, off with automatic compaction off, and never for providers without it", () => {
    const limits = { contextWindow: 200_000, maxOutputTokens: 64_000 };
    const on = { compaction: { auto: true, prune: true, threshold: 1, provider: true } };
    expect(providerCompactionRequest({ provider: "anthropic", ...limits }, on)).toEqual({ threshold: Math.floor(overflowAt(limits, on) * 0.9) });
    expect(providerCompactionRequest({ provider: "anthropic", ...limits }, { compaction: { auto: true, prune: true, threshold: 1 } })).toBeUndefined();
    expect(providerCompactionRequest({ provider: "anthropic", ...limits }, { compaction: { ...on.compaction, auto: false } })).toBeUndefined();
    for (const provider of ["openai-compatible", "google", "openrouter", "demo"] as const) expect(providerCompactionRequest({ provider, ...limits }, on)).toBeUndefined();
  });
});
