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

const chosen = { providerID: "openai", modelID: "gpt-4.1" };

describe("stepModelBeforeSwitch (the header while a switched model waits for the next step)", () => {
  it("past a prompt sent during the step, and while the step waits for the person's command", () => {
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4o-mini"), user("msg_u2")], busy, chosen)).toBe("gpt-4o-mini");
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4o-mini")], { type: "awaiting-command", command: "make" }, chosen)).toBe("gpt-4o-mini");
    // A prompt waiting behind a step that has ended: nothing runs on the old model.
    const ended = answer("msg_a", "gpt-4o-mini", { time: { created: 2, completed: 3 } });
    expect(stepModelBeforeSwitch([user("msg_u"), ended, user("msg_u2")], busy, chosen)).toBeUndefined();
  });

  it("a switch of provider with the same model id names the provider", () => {
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4.1")], busy, { providerID: "openrouter", modelID: "gpt-4.1" })).toBe("openai/gpt-4.1");
  });

  it("names the running step's model when the session's model was switched after it started", () => {
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4o-mini")], busy, chosen)).toBe("gpt-4o-mini");
    // A retry of that step is still sent to the model it started on.
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4o-mini")], { type: "retry", attempt: 1, message: "busy", next: 9 }, chosen)).toBe("gpt-4o-mini");
  });

  it("says nothing when the step runs on the chosen model, or nothing runs", () => {
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4.1")], busy, chosen)).toBeUndefined();
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4o-mini")], { type: "idle" }, chosen)).toBeUndefined();
  });

  it("says nothing between steps: the newest answer has ended and the next one is not written yet", () => {
    const ended = answer("msg_a", "gpt-4o-mini", { time: { created: 2, completed: 3 } });
    expect(stepModelBeforeSwitch([user("msg_u"), ended], busy, chosen)).toBeUndefined();
    expect(stepModelBeforeSwitch([user("msg_u")], busy, chosen)).toBeUndefined();
  });

  it("looks past a summary streaming on the summary model to the step it belongs to", () => {
    const summary = answer("msg_s", "cheap-model", { summary: true });
    expect(stepModelBeforeSwitch([user("msg_u"), answer("msg_a", "gpt-4o-mini"), summary], busy, chosen)).toBe("gpt-4o-mini");
    expect(stepModelBeforeSwitch([user("msg_u"), summary], busy, chosen)).toBeUndefined();
  });
});
