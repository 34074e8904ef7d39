import type { LLM, LLMMessage, ModelConfig } from "../ports/llm";

export const TITLE_PROMPT = `You write a short title for a conversation between a user and a coding assistant.
Rules: at most 50 characters, a single line, no quotes, no trailing punctuation, same language as the user.
Describe the user's task (for example "Fix failing date parser test"). Output only the title.`;

/** Cleans a model-produced title: no think blocks, first non-empty line, at most 100 chars. */
export function cleanTitle(raw: string): string {
  const noThink = raw.replace(/<think>[\s\S]*?<\/think>/g, "");
  const line = noThink
    .split("\n")
    .map((l) => l.trim().replace(/^["'#*\s]+|["'*\s]+$/g, ""))
    .find((l) => l.length > 0);
  if (!line) return "";
  return line.length > 100 ? `${line.slice(0, 97)}...` : line;
}

/** Asks the model for a title; resolves to "" on any failure (title generation never disturbs the session). */
export async function generateTitle(llm: LLM, model: ModelConfig, userText: string, signal: AbortSignal): Promise<string> {
  const messages: LLMMessage[] = [
    { role: "user", content: [{ type: "text", text: `Generate a title for this conversation:\n\n${userText.slice(0, 4000)}` }] },
  ];
  let text = "";
  try {
    for await (const ev of llm.stream({ model, system: [TITLE_PROMPT], messages, tools: [], maxOutputTokens: 64, signal, purpose: "title" })) {
      if (ev.type === "text-delta") text += ev.delta;
      if (ev.type === "error") return "";
    }
  } catch {
    return "";
  }
  return cleanTitle(text);
}
