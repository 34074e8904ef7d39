import { describe, expect, it } from "vitest";
import type { SessionStatus } from "../core/bus";
import type { AssistantMessage, MessageWithParts, UserMessage } from "../core/schema";
import { stepModelBeforeSwitch } from "./model-switch";

const user = (id: string): MessageWithParts => ({
  info: { id, sessionID: "ses_1", role: "user", time: { created: 1 }, agent: "build", model: { providerID: "openai", modelID: "gpt-4o-mini" } } satisfies UserMessage,
  parts: [],
});
const answer = (id: string, modelID: string, extra: Partial<AssistantMessage> = {}): MessageWithParts => ({
  info: {
    id,
    sessionID: "ses_1",
    role: "assistant",
    parentID: "msg_u",
    time: { created: 2 },
    modelID,
    providerID: "openai",
    agent: "build",
    cost: 0,
    tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    ...extra,
  },
  parts: [],
});
const busy: SessionStatus = { type: "busy" };

describe("stepModelBeforeSwitch (the header while a switched model waits for the next step)", () => {
  it("names the running step's model when the session's model was switched after it started", () => {
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4o-mini")], busy, "gpt-4.1")).toBe("gpt-4o-mini");
    // A retry of that step is still sent to the model it started on.
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4o-mini")], { type: "retry", attempt: 1, message: "busy", next: 9 }, "gpt-4.1")).toBe("gpt-4o-mini");
  });

  it("says nothing when the step runs on the chosen model, or nothing runs", () => {
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4.1")], busy, "gpt-4.1")).toBeUndefined();
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4o-mini")], { type: "idle" }, "gpt-4.1")).toBeUndefined();
  });

  it("says nothing between steps: the newest answer has ended and the next one is not written yet", () => {
    const ended = answer("msg_a", "gpt-4o-mini", { time: { created: 2, completed: 3 } });
    expect(stepModelBeforeSwitch([user("msg_u"), ended], busy, "gpt-4.1")).toBeUndefined();
    expect(stepModelBeforeSwitch([user("msg_u")], busy, "gpt-4.1")).toBeUndefined();
  });

  it("looks past a summary streaming on the summary model to the step it belongs to", () => {
    const summary = answer("msg_s", "cheap-model", { summary: true });
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4o-mini"), summary], busy, "gpt-4.1")).toBe("gpt-4o-mini");
    expect(stepModelBeforeSwitch([user("msg_u"), summary], busy, "gpt-4.1")).toBeUndefined();
  });
});
