import { describe, expect, it } from "vitest";
import { ascendingId, descendingId } from "../ids";
import { emptyTokens } from "./common";
import { Message } from "./message";
import { Part, PART_TYPES, type PartType } from "./part";
import { Session } from "./session";

const sessionID = descendingId("ses");
const messageID = ascendingId("msg");
const ids = () => ({ id: ascendingId("prt"), sessionID, messageID });
const tokens = emptyTokens();
const text = { value: "x", start: 0, end: 1 };

/** One valid example of every part type. */
const VALID: Record<PartType, unknown> = {
  text: { ...ids(), type: "text", text: "hi", synthetic: true, time: { start: 1 } },
  reasoning: { ...ids(), type: "reasoning", text: "why", time: { start: 1, end: 2 } },
  file: { ...ids(), type: "file", mime: "text/plain", url: "data:text/plain,hi", source: { type: "file", path: "a", text } },
  tool: {
    ...ids(),
    type: "tool",
    callID: "c1",
    tool: "bash",
    state: { status: "error", input: {}, error: "boom", metadata: { interrupted: true }, time: { start: 1, end: 2 } },
  },
  "step-start": { ...ids(), type: "step-start", snapshot: "abc" },
  "step-finish": { ...ids(), type: "step-finish", reason: "stop", cost: 0.1, tokens },
  snapshot: { ...ids(), type: "snapshot", snapshot: "abc" },
  patch: { ...ids(), type: "patch", hash: "abc", files: ["a.ts"] },
  agent: { ...ids(), type: "agent", name: "plan", source: text },
  subtask: { ...ids(), type: "subtask", prompt: "p", description: "d", agent: "general" },
  retry: { ...ids(), type: "retry", attempt: 1, error: { name: "APIError", data: { message: "x" } }, time: { created: 1 } },
  compaction: { ...ids(), type: "compaction", auto: true, overflow: false },
};

describe("Part schema", () => {
  it.each(PART_TYPES.map((t) => [t]))("accepts a valid %s part", (t) => {
    expect(Part.safeParse(VALID[t]).success).toBe(true);
  });

  it.each([
    ["an unknown type", { ...ids(), type: "video" }],
    ["a text part without text", { ...ids(), type: "text" }],
    ["a wrong id prefix", { ...ids(), id: "msg_1", type: "text", text: "" }],
    ["a missing messageID", { id: ascendingId("prt"), sessionID, type: "text", text: "" }],
    ["a reasoning part without time", { ...ids(), type: "reasoning", text: "" }],
    ["a negative step cost", { ...ids(), type: "step-finish", reason: "stop", cost: -1, tokens }],
    ["a tool state with an unknown status", { ...ids(), type: "tool", callID: "c", tool: "t", state: { status: "done", input: {} } }],
    ["a completed tool without output", { ...ids(), type: "tool", callID: "c", tool: "t", state: { status: "completed", input: {}, title: "", metadata: {}, time: { start: 1, end: 2 } } }],
    ["a retry with attempt 0", { ...ids(), type: "retry", attempt: 0, error: { name: "x", data: {} }, time: { created: 1 } }],
    ["a non-object", "text"],
  ])("rejects %s", (_, row) => {
    expect(Part.safeParse(row).success).toBe(false);
  });
});

describe("Message and Session schemas", () => {
  const user = {
    id: messageID,
    sessionID,
    role: "user",
    time: { created: 1 },
    agent: "build",
    model: { providerID: "openai", modelID: "m" },
  };
  const session = {
    id: sessionID,
    title: "t",
    directory: "/",
    version: "0.1.0",
    time: { created: 1, updated: 2 },
    tokens,
    cost: 0,
  };

  it("accepts valid rows", () => {
    expect(Message.safeParse(user).success).toBe(true);
    expect(Session.safeParse(session).success).toBe(true);
  });

  it("rejects broken rows", () => {
    expect(Message.safeParse({ ...user, role: "system" }).success).toBe(false);
    expect(Message.safeParse({ ...user, role: "assistant" }).success).toBe(false);
    expect(Session.safeParse({ ...session, title: 3 }).success).toBe(false);
    expect(Session.safeParse({ ...session, time: { created: 1 } }).success).toBe(false);
    expect(Session.safeParse({ ...session, id: "msg_x" }).success).toBe(false);
  });
});
