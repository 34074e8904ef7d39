/**
 * Valid rows for storage tests, built with the real schema types and ids.
 * Only tests import this module.
 */
import { ascendingId, descendingId } from "../../core/ids";
import {
  type AssistantMessage,
  emptyTokens,
  type MessageWithParts,
  type Part,
  type ReasoningPart,
  type Session,
  type StepFinishPart,
  type TextPart,
  type ToolPart,
  type UserMessage,
} from "../../core/schema";

export function makeSession(over: Partial<Session> = {}, now = 1_700_000_000_000): Session {
  return {
    id: descendingId("ses", now),
    title: "A session",
    directory: "/work",
    version: "0.1.0",
    time: { created: now, updated: now },
    tokens: emptyTokens(),
    cost: 0,
    ...over,
  };
}

export function userMessage(sessionID: string, created = 1_700_000_000_000): UserMessage {
  return {
    id: ascendingId("msg"),
    sessionID,
    role: "user",
    time: { created },
    agent: "build",
    model: { providerID: "openai", modelID: "gpt-test" },
  };
}

export function assistantMessage(sessionID: string, parentID: string): AssistantMessage {
  return {
    id: ascendingId("msg"),
    sessionID,
    role: "assistant",
    parentID,
    time: { created: 1_700_000_000_100 },
    modelID: "gpt-test",
    providerID: "openai",
    agent: "build",
    cost: 0,
    tokens: emptyTokens(),
  };
}

type Owner = { id: string; sessionID: string };

export function textPart(m: Owner, text: string): TextPart {
  return { id: ascendingId("prt"), sessionID: m.sessionID, messageID: m.id, type: "text", text };
}

export function reasoningPart(m: Owner, text: string): ReasoningPart {
  return { id: ascendingId("prt"), sessionID: m.sessionID, messageID: m.id, type: "reasoning", text, time: { start: 1 } };
}

export function toolPart(m: Owner): ToolPart {
  return {
    id: ascendingId("prt"),
    sessionID: m.sessionID,
    messageID: m.id,
    type: "tool",
    callID: "call_1",
    tool: "read",
    state: {
      status: "completed",
      input: { path: "a.ts" },
      output: "hello",
      title: "a.ts",
      metadata: {},
      time: { start: 1, end: 2 },
    },
  };
}

export function stepFinishPart(m: Owner, cost: number, input: number, output: number): StepFinishPart {
  return {
    id: ascendingId("prt"),
    sessionID: m.sessionID,
    messageID: m.id,
    type: "step-finish",
    reason: "stop",
    cost,
    tokens: { input, output, reasoning: 0, cache: { read: 0, write: 0 } },
  };
}

/** A user turn and an assistant answer with several part types. */
export function conversation(sessionID: string): MessageWithParts[] {
  const u = userMessage(sessionID);
  const a = assistantMessage(sessionID, u.id);
  const uParts: Part[] = [textPart(u, "read a.ts")];
  const aParts: Part[] = [reasoningPart(a, "thinking"), toolPart(a), textPart(a, "done"), stepFinishPart(a, 0.01, 10, 5)];
  return [
    { info: u, parts: uParts },
    { info: a, parts: aParts },
  ];
}
