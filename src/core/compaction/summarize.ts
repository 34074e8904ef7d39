import { ascendingId } from "../ids";
import type { LLMRequest, LLMUserContent, ModelConfig } from "../ports/llm";
import type { Store } from "../ports/store";
import type { AssistantMessage, CompactionPart, MessageWithParts, ModelRef, Session, UserMessage } from "../schema";
import { maxOutput } from "./overflow";
import { mediaOf, serializeTranscript, splitSummary, type ToolLog } from "./transcript";

/** The hidden agent that writes summaries. */
export const COMPACTION_AGENT = "compaction";

export const COMPACTION_SYSTEM_PROMPT = `You summarise a coding session between a user and a coding agent so that another agent can continue the work with no other context.
Write only the summary. Do not answer questions from the conversation, do not call tools, do not add greetings.
Keep exact file paths, identifiers, error messages and decisions. Prefer terse bullets. Carry forward only requests that are still open.`;

/** Sections of a summary, in order (OpenCode 2.x's template); every one is kept, even when empty. */
export const SUMMARY_SECTIONS = ["Goal", "Constraints & Preferences", "Progress", "Key Decisions", "Next Steps", "Critical Context"] as const;

const TEMPLATE = `Use exactly these sections, in this order, and keep every one of them even when it is empty (write "(none)"):

## Goal
What the user wants to achieve overall.

## Constraints & Preferences
Every rule, requirement, limit and preference the user stated, in the user's own words where possible. Never drop one that still holds.

## Progress
### Done
### In Progress
### Blocked

## Key Decisions
Decisions taken and why, so they are not revisited.

## Next Steps
What to do next, the first step first.

## Critical Context
Exact error messages, identifiers, values and facts the work depends on.

Keep the summary under about 2,000 words. Do not write a "Relevant files" or "Commands run" section: they are added automatically from the tool log.`;

/** Finds the compaction request the loop must process: the newest user message, with a compaction part and no summary answer yet. */
export function pendingCompaction(msgs: MessageWithParts[]): { message: MessageWithParts & { info: UserMessage }; part: CompactionPart } | undefined {
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (!m) continue;
    if (m.info.role === "assistant" && m.info.summary) return undefined;
    if (m.info.role !== "user") continue;
    const part = m.parts.find((p): p is CompactionPart => p.type === "compaction");
    const answered = msgs.some((a) => a.info.role === "assistant" && a.info.parentID === m.info.id);
    return part && !answered ? { message: { info: m.info, parts: m.parts }, part } : undefined;
  }
  return undefined;
}

export interface CompactionRequestOptions {
  auto: boolean;
  /** Set when the provider rejected a request as too large: the last user message is replayed after the summary. */
  overflow?: boolean;
  now: number;
  /** How the summary is asked for (the policy's choice). */
  mode?: "transcript" | "cached-prefix";
  /** Defaults to the session's current agent and model. */
  agent?: string;
  model?: ModelRef;
}

/**
 * Appends a user message carrying a `compaction` part (same agent and model
 * as the session). The loop processes it next with `processCompaction`.
 */
export async function createCompactionRequest(store: Store, session: Session, opts: CompactionRequestOptions): Promise<{ message: UserMessage; part: CompactionPart }> {
  const msgs = await store.messages(session.id);
  const lastUser = [...msgs].reverse().find((m) => m.info.role === "user")?.info;
  const fallback = lastUser?.role === "user" ? lastUser : undefined;
  const model = opts.model ?? session.model ?? fallback?.model;
  if (!model) throw new Error(`Session ${session.id} has no model to compact with`);
  const message: UserMessage = {
    id: ascendingId("msg", opts.now),
    sessionID: session.id,
    role: "user",
    time: { created: opts.now },
    agent: opts.agent ?? session.agent ?? fallback?.agent ?? "build",
    model,
  };
  const part: CompactionPart = { id: ascendingId("prt", opts.now), sessionID: session.id, messageID: message.id, type: "compaction", auto: opts.auto };
  if (opts.overflow) part.overflow = true;
  if (opts.mode) part.mode = opts.mode;
  await store.upsertMessage(message);
  await store.upsertPart(part);
  return { message, part };
}

/** The newest completed summary in a (filtered) history, split into its model-written body and its tool log. */
export function previousSummary(msgs: MessageWithParts[]): { message: MessageWithParts & { info: AssistantMessage }; body: string; log: ToolLog } | undefined {
  for (let i = msgs.length - 1; i >= 0; i--) {
    const m = msgs[i];
    if (m?.info.role !== "assistant" || !m.info.summary || !m.info.finish || m.info.error) continue;
    const text = m.parts.map((p) => (p.type === "text" && !p.ignored ? p.text : "")).join("\n");
    return { message: { info: m.info, parts: m.parts }, ...splitSummary(text) };
  }
  return undefined;
}

export interface SummaryRequestInput {
  model: ModelConfig;
  head: MessageWithParts[];
  /** The body of the previous summary, to update rather than restart. */
  previous?: string;
  /** Send the head's images and PDFs as files (first attempt) or only their placeholders. */
  withMedia: boolean;
  /** The user's earlier words the chat request carried after the previous summary (core/pins/after-compaction), so rules stated there are kept again. */
  earlier?: string;
}

/**
 * The last user message of a `cached-prefix` summary: the conversation is the
 * request itself (served from the provider's cache), so only the instructions
 * follow. A previous summary is already in it (the first answer, to the
 * compaction question), so it is not sent a second time.
 */
export function cachedPrefixInstructions(updating: boolean): string {
  const intro = updating
    ? "Stop working on the task now. Update the summary written at the previous compaction (the first answer in this conversation) with everything that happened since: keep what still holds, revise what changed, add what is new."
    : "Stop working on the task now. Write a summary of this whole conversation for the agent that will continue the work.";
  return `${intro}\n\nDo not call any tool; answer with the summary text only.\n\n${TEMPLATE}`;
}

/** The text of the summary request (transcript + instructions). */
export function summaryPrompt(head: MessageWithParts[], previous: string | undefined, earlier?: string): string {
  const transcript = serializeTranscript(head) || "(no new messages)";
  const intro = previous
    ? "Below is the summary written at the previous compaction, then the conversation that followed it. Update the summary: keep what still holds, revise what changed, add what is new. Do not start over."
    : "Below is the conversation so far. Write a summary of it for the agent that will continue the work.";
  const prev = previous ? `<previous-summary>\n${previous}\n</previous-summary>\n\n` : "";
  const words = earlier ? `<earlier-user-messages>\n${earlier}\n</earlier-user-messages>\n\n` : "";
  return `${intro}\n\n${prev}${words}<conversation>\n${transcript}\n</conversation>\n\n${TEMPLATE}`;
}

/** A summary request: no tools, the compaction system prompt, one user message. */
export function buildSummaryRequest(input: SummaryRequestInput): Omit<LLMRequest, "signal"> {
  const content: LLMUserContent[] = [{ type: "text", text: summaryPrompt(input.head, input.previous, input.earlier) }];
  if (input.withMedia) for (const f of mediaOf(input.head)) content.push({ type: "file", ...f });
  return {
    model: input.model,
    system: [COMPACTION_SYSTEM_PROMPT],
    messages: [{ role: "user", content }],
    tools: [],
    maxOutputTokens: maxOutput(input.model),
    purpose: "summary",
  };
}
