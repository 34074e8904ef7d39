/**
 * A rehearsal of the request path, run once per provider when the model worker
 * preloads it: a made-up conversation goes through `streamText`, the provider's
 * conversion and its JSON body, up to a fetch that sends nothing. The first real
 * request then runs code the engine has already compiled and tiered up, instead
 * of interpreting it cold while the user waits (measured in the worker: the first
 * request's conversion took 30–90 ms, later ones 5–45 ms).
 *
 * Nothing leaves the worker: the rehearsal's provider is built with its own fetch,
 * which refuses every call, and with a placeholder key (never the user's).
 */
import type { LLMMessage, LLMRequest, LLMToolSpec, ModelConfig } from "../../core/ports/llm";
import { streamWithModel } from "./ai-sdk-llm";
import { createModelFactory } from "./model-factory";

/** What the rehearsal's fetch throws (and all it does). */
export class RehearsalFetch extends Error {
  constructor() {
    super("A rehearsal sends nothing.");
    this.name = "RehearsalFetch";
  }
}

/** Exchanges in the made-up conversation: enough calls for the engine to optimise the per-message code. */
const EXCHANGES = 40;

const TOOLS: LLMToolSpec[] = [
  { name: "read", description: "Read a file.", inputSchema: { type: "object", properties: { path: { type: "string" }, offset: { type: "number" } }, required: ["path"] } },
  { name: "bash", description: "Run a command.", inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } },
];

/** A conversation with every kind of content the loop sends: text, reasoning, tool calls and their results. */
function rehearsalRequest(config: ModelConfig): Omit<LLMRequest, "signal"> {
  const messages: LLMMessage[] = [];
  for (let i = 0; i < EXCHANGES; i++) {
    messages.push({ role: "user", content: [{ type: "text", text: `Question ${i}: what does src/file${i}.ts do?` }] });
    messages.push({
      role: "assistant",
      content: [
        { type: "reasoning", text: `Reading file ${i} first.` },
        { type: "text", text: `Let me look at **src/file${i}.ts**.` },
        { type: "tool-call", callID: `call_${i}`, tool: i % 2 ? "bash" : "read", input: i % 2 ? { command: `wc -l src/file${i}.ts` } : { path: `src/file${i}.ts` } },
      ],
    });
    messages.push({ role: "tool", content: [{ type: "tool-result", callID: `call_${i}`, tool: i % 2 ? "bash" : "read", output: `export const value${i} = ${i};\n`.repeat(3), ...(i % 7 === 3 ? { isError: true } : {}) }] });
  }
  messages.push({ role: "user", content: [{ type: "text", text: "Thanks, that is all." }], cache: true });
  return {
    model: { ...config, apiKey: "rehearsal-placeholder-key" },
    system: ["You are a coding agent.", "Environment: a browser tab."],
    messages,
    tools: TOOLS,
    maxOutputTokens: Math.min(config.maxOutputTokens, 1024),
    cacheKey: "rehearsal",
    purpose: "chat",
  };
}

/**
 * Runs the rehearsal for `config`'s provider; resolves when it is over (it ends with the fetch's refusal, which is
 * dropped), or soon after `signal` aborts (a real request has started).
 */
export async function rehearse(config: ModelConfig, signal: AbortSignal = new AbortController().signal, refuse: typeof fetch = refuseAll): Promise<void> {
  if (config.provider === "demo" || signal.aborted) return;
  const req = rehearsalRequest(config);
  const model = await createModelFactory(refuse).model(req.model);
  if (signal.aborted) return;
  for await (const _event of streamWithModel(model, { ...req, signal })) {
    // Drained: the only event is the error the refusing fetch caused.
  }
}

const refuseAll: typeof fetch = async () => {
  throw new RehearsalFetch();
};
