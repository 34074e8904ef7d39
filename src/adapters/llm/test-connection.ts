/**
 * "Test connection" for the settings screen: one tiny call through the LLM
 * port, reporting the model's reply or the classified error (with its hint).
 */
import type { LLM, ModelConfig } from "../../core/ports/llm";
import { namedError } from "../../core/errors";
import type { NamedErrorData } from "../../core/schema/common";

/** The reply text on success, or the classified error (with `data.hint`). */
export type TestConnectionResult = { ok: true; text: string } | { ok: false; error: NamedErrorData };

/** The prompt sent by the connection test. */
export const TEST_PROMPT = "Reply with the word OK.";

/** Sends one short prompt; `signal` lets the settings screen cancel it. */
export async function testConnection(model: ModelConfig, llm: LLM, signal?: AbortSignal): Promise<TestConnectionResult> {
  let text = "";
  let reasoning = false;
  for await (const ev of llm.stream({
    model,
    system: [],
    messages: [{ role: "user", content: [{ type: "text", text: TEST_PROMPT }] }],
    tools: [],
    // 16 is the smallest limit the Responses API accepts. A reasoning model may
    // spend it all on thinking: a `length` finish still proves the connection.
    maxOutputTokens: 16,
    signal: signal ?? new AbortController().signal,
    purpose: "test",
  })) {
    switch (ev.type) {
      case "text-delta":
        text += ev.delta;
        break;
      case "reasoning-start":
        reasoning = true;
        break;
      case "error":
        return { ok: false, error: ev.error };
      case "finish":
        // Any answer proves the key, URL and model work; an empty one from a thinking model too.
        if (text.trim() === "" && !reasoning && ev.reason !== "length") {
          return {
            ok: false,
            error: namedError("StreamError", {
              message: "The model answered with no text.",
              hint: "The server replied but sent no text. Check that the model id is a chat model.",
            }),
          };
        }
        return { ok: true, text: text.trim() };
      default:
        break;
    }
  }
  return { ok: false, error: namedError("StreamError", { message: "The response stream ended unexpectedly" }) };
}
