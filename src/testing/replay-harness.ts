/**
 * Runs the real session loop over the real AI SDK adapter, with a fetch that
 * answers each model request with the next recorded provider stream (tests
 * only). Records every request body so tests can check what was sent back.
 */
import { z } from "../core/zod";
import { createAiSdkLLM } from "../adapters/llm/ai-sdk-llm";
import type { Clock } from "../core/ports/clock";
import type { ProviderKind } from "../core/providers";
import type { AssistantMessage, MessageWithParts, ToolPart } from "../core/schema";
import { defineTool, type Tool } from "../core/tools/tool";
import { type ReplayFormat, sseBody } from "./replay";
import { makeTestService } from "./session-service";

/** One model answer: recorded chunks framed as `format`. */
export interface ReplayStep {
  format: ReplayFormat;
  lines: readonly string[];
}

export interface ReplayRequest {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}

const fastClock: Clock = { now: () => Date.now(), sleep: async () => undefined };

/** A stand-in for the tool a recording calls (e.g. `weather`): accepts any arguments, answers `output`. */
export function recordedTool(id: string, output = "Sunny, 21 °C"): Tool {
  return defineTool({
    id,
    description: `The recorded ${id} tool`,
    parameters: z.record(z.string(), z.unknown()),
    execute: async () => ({ title: id, output }),
  });
}

/** Runs `prompts` one after the other; each model request takes the next step. */
export async function replaySession(opts: {
  provider: ProviderKind;
  modelID: string;
  steps: readonly ReplayStep[];
  tools?: Tool[];
  prompts?: readonly string[];
}) {
  const requests: ReplayRequest[] = [];
  const queue = [...opts.steps];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const raw = typeof init?.body === "string" ? init.body : "{}";
    // Title requests are refused (a title failure never disturbs the session), so they take no step.
    if (raw.includes("Generate a title for this conversation")) {
      return new Response(JSON.stringify({ error: { message: "no titles in replay" } }), { status: 400, headers: { "content-type": "application/json" } });
    }
    requests.push({ url, headers: new Headers(init?.headers), body: JSON.parse(raw) as Record<string, unknown> });
    const step = queue.shift();
    if (!step) return new Response(JSON.stringify({ error: { message: "replay: no recorded step left" } }), { status: 500, headers: { "content-type": "application/json" } });
    return new Response(sseBody(step.lines, step.format), { status: 200, headers: { "content-type": "text/event-stream" } });
  };
  const { store, service } = makeTestService({
    llm: createAiSdkLLM({ fetch }),
    tools: opts.tools ?? [],
    settings: { provider: opts.provider, modelID: opts.modelID, baseURL: "https://replay.test/v1", apiKey: "test-key-0123456789" },
    clock: fastClock,
  });
  const session = await service.createSession();
  for (const text of opts.prompts ?? ["Go"]) {
    await service.prompt(session.id, { text });
    await service.ensureRunning(session.id);
  }
  const messages = await store.messages(session.id);
  const assistants = messages.filter((m): m is MessageWithParts & { info: AssistantMessage } => m.info.role === "assistant");
  const parts = assistants.flatMap((m) => m.parts);
  return {
    requests,
    messages,
    assistants,
    left: queue.length,
    text: parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(""),
    reasoning: parts.flatMap((p) => (p.type === "reasoning" ? [p.text] : [])).join(""),
    tools: parts.filter((p): p is ToolPart => p.type === "tool"),
    session: await store.getSession(session.id),
  };
}

/** Splits a recording of several responses (one per step) at each `response.created`. */
export function splitResponses(lines: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const l of lines) {
    if (l.includes('"type":"response.created"') || out.length === 0) out.push([]);
    out[out.length - 1]?.push(l);
  }
  return out;
}
