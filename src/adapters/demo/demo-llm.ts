/**
 * The built-in demo model: a deterministic, scripted agent behind the LLM
 * port, so a first-time user with no API key sees the whole session mechanism
 * (streamed text, tool calls, todo list, usage) without any network.
 * It decides its next step from the request alone (stateless), like a real model.
 */
import type { LLM, LLMEvent, LLMMessage, LLMRequest } from "../../core/ports/llm";

const CHUNK_DELAY_MS = 12;

function lastUserText(messages: LLMMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === "user") return m.content.map((c) => (c.type === "text" ? c.text : "")).join(" ");
  }
  return "";
}

/** Tool results the model has seen since the last user message. */
function toolsSinceUser(messages: LLMMessage[]): string[] {
  const out: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!m || m.role === "user") break;
    if (m.role === "tool") for (const r of m.content) out.push(r.tool);
  }
  return out;
}

function approxTokens(req: LLMRequest): number {
  const chars = JSON.stringify(req.messages).length + req.system.join("").length + JSON.stringify(req.tools).length;
  return Math.ceil(chars / 4);
}

function words(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}

function textEvents(text: string): LLMEvent[] {
  return [{ type: "text-start", id: "d" }, ...words(text).map((delta) => ({ type: "text-delta" as const, id: "d", delta })), { type: "text-end", id: "d" }];
}

function plan(req: LLMRequest): LLMEvent[] {
  const user = lastUserText(req.messages).trim();
  const has = (name: string) => req.tools.some((t) => t.name === name);
  const done = toolsSinceUser(req.messages);
  const reasoning: LLMEvent[] = [
    { type: "reasoning-start", id: "r" },
    ...words(`The user wrote: "${user.slice(0, 80)}". I am the demo model, so I will show how a turn works: plan with a todo list, then answer.`).map((delta) => ({ type: "reasoning-delta" as const, id: "r", delta })),
    { type: "reasoning-end", id: "r" },
  ];
  if (has("todowrite") && !done.includes("todowrite")) {
    const todos = [
      { id: "1", content: "Read the request", status: "completed", priority: "high" },
      { id: "2", content: "Show how tools and parts work", status: "in_progress", priority: "medium" },
      { id: "3", content: "Explain how to use a real model", status: "pending", priority: "low" },
    ];
    const input = JSON.stringify({ todos });
    return [
      ...reasoning,
      ...textEvents("Let me plan this with a todo list first.\n"),
      { type: "tool-input-start", callID: "demo_todo_1", tool: "todowrite" },
      ...(input.match(/.{1,24}/g) ?? []).map((delta) => ({ type: "tool-input-delta" as const, callID: "demo_todo_1", delta })),
      { type: "tool-call", callID: "demo_todo_1", tool: "todowrite", input },
    ];
  }
  return textEvents(
    [
      "This is **tabcode's demo model** — a scripted agent that runs in your tab, with no API key and no network.",
      "",
      "What you just saw is a real session:",
      "- a *reasoning* part (collapsed above),",
      "- a `todowrite` **tool call** that went pending → running → completed,",
      "- this streamed **text** part, and step markers with token usage and cost.",
      "",
      `I can't really answer "${user.slice(0, 60)}" — I'm a demo. To work with a real model, open **Settings** and choose OpenAI or any OpenAI-compatible server (Ollama, LM Studio, vLLM, OpenRouter) with your own key. Your key stays in this browser.`,
    ].join("\n"),
  );
}

/** The demo LLM. `delayMs` paces the stream like a real model. */
export function createDemoLLM(delayMs = CHUNK_DELAY_MS): LLM {
  return {
    async *stream(req) {
      if (req.purpose === "title") {
        const title = lastUserText(req.messages).replace(/^Generate a title for this conversation:\s*/, "").slice(0, 40).trim() || "Demo session";
        yield { type: "text-delta", id: "t", delta: title };
        yield { type: "finish", reason: "stop", usage: {} };
        return;
      }
      const events = plan(req);
      const output = events.reduce((n, e) => n + (e.type === "text-delta" || e.type === "tool-input-delta" || e.type === "reasoning-delta" ? Math.ceil(e.delta.length / 4) : 0), 0);
      const finishReason = events.some((e) => e.type === "tool-call") ? "tool-calls" : "stop";
      for (const ev of events) {
        if (req.signal.aborted) return;
        await new Promise((r) => setTimeout(r, delayMs));
        yield ev;
      }
      yield { type: "finish", reason: finishReason, usage: { inputTokens: approxTokens(req), outputTokens: output } };
    },
  };
}
