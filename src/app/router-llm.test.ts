import { describe, expect, it } from "vitest";
import type { LLMEvent, ModelConfig } from "../core/ports/llm";
import { routerLLM } from "./bootstrap";

async function drain(events: AsyncIterable<LLMEvent>): Promise<LLMEvent[]> {
  const out: LLMEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

const sizes = { contextWindow: 128_000, maxOutputTokens: 4_000, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
const request = (model: Pick<ModelConfig, "provider" | "modelID" | "apiKey">) => ({
  model: { ...sizes, ...model },
  system: [],
  messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }],
  tools: [],
  maxOutputTokens: 4_000,
  signal: new AbortController().signal,
});

describe("routerLLM", () => {
  it("calls beforeRequest as a real provider's request is handed over, never for the demo model", async () => {
    let calls = 0;
    const llm = routerLLM(() => calls++);
    await drain(llm.stream(request({ provider: "demo", modelID: "demo" })));
    expect(calls).toBe(0);
    // Node has no Worker: the request cannot be handed to the model worker and ends with an error, after the call.
    const events = await drain(llm.stream(request({ provider: "openai", modelID: "gpt-4o-mini", apiKey: "sk-test" })));
    expect(calls).toBe(1);
    expect(events.at(-1)?.type).toBe("error");
  });
});
