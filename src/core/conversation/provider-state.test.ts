import { describe, expect, it } from "vitest";
import type { MessageWithParts, Part } from "../schema";
import { providerMetadata, toModelMessages } from "./to-model";
import { hasUnreadToolResult, isTurnDone, latest } from "./view";

const tokens = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
const base = { sessionID: "ses_1", messageID: "msg_2" };
const user: MessageWithParts = {
  info: { id: "msg_1", sessionID: "ses_1", role: "user", agent: "build", model: { providerID: "p", modelID: "m" }, time: { created: 1 } },
  parts: [{ ...base, messageID: "msg_1", id: "prt_0", type: "text", text: "Go" }],
} as MessageWithParts;
function assistant(parts: Part[], finish = "stop"): MessageWithParts {
  return { info: { id: "msg_2", sessionID: "ses_1", role: "assistant", parentID: "msg_1", modelID: "m", providerID: "p", agent: "build", mode: "build", path: { cwd: "/", root: "/" }, cost: 0, tokens, finish, time: { created: 2, completed: 3 } }, parts } as MessageWithParts;
}
const tool = (id: string, meta?: Record<string, unknown>): Part => ({ ...base, id, type: "tool", callID: `call_${id}`, tool: "read", ...(meta ? { metadata: meta } : {}), state: { status: "completed", input: { path: "a" }, output: "x", title: "a", metadata: {}, time: { start: 1, end: 2 } } }) as Part;

describe("provider state sent back (history → model messages)", () => {
  it("keeps provider-keyed metadata on reasoning, text and tool calls; drops tabcode's own flags", () => {
    const msgs = toModelMessages([
      user,
      assistant([
        { ...base, id: "prt_1", type: "reasoning", text: "", metadata: { openai: { itemId: "rs_1", reasoningEncryptedContent: "gAAA" } }, time: { start: 1, end: 2 } },
        { ...base, id: "prt_2", type: "text", text: "ok", metadata: { anthropic: { signature: "sig" }, rejectedSummary: true } },
        tool("prt_3", { google: { thoughtSignature: "ts" } }),
      ] as Part[]),
    ]);
    expect(msgs[1]).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "", providerMetadata: { openai: { itemId: "rs_1", reasoningEncryptedContent: "gAAA" } } },
        { type: "text", text: "ok", providerMetadata: { anthropic: { signature: "sig" } } },
        { type: "tool-call", callID: "call_prt_3", tool: "read", input: { path: "a" }, providerMetadata: { google: { thoughtSignature: "ts" } } },
      ],
    });
    expect(providerMetadata({ providerExecuted: true })).toEqual({});
  });

  it("an empty reasoning part without provider state is not sent", () => {
    const msgs = toModelMessages([user, assistant([{ ...base, id: "prt_1", type: "reasoning", text: "", time: { start: 1 } }, { ...base, id: "prt_2", type: "text", text: "ok" }] as Part[])]);
    expect(msgs[1]?.content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("provider-run tools are shown but never sent back as tool calls or results", () => {
    const msgs = toModelMessages([user, assistant([tool("prt_1", { providerExecuted: true }), { ...base, id: "prt_2", type: "text", text: "found it" }] as Part[])]);
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(msgs[1]?.content).toEqual([{ type: "text", text: "found it" }]);
  });
});

describe("turn end = no unread tool result, whatever the finish reason", () => {
  it("tool calls with finish 'stop' continue; a text answer with 'tool-calls' and no call of ours ends", () => {
    expect(isTurnDone(latest([user, assistant([tool("prt_1")], "stop")]))).toBe(false);
    expect(isTurnDone(latest([user, assistant([{ ...base, id: "prt_1", type: "text", text: "done" } as Part], "tool-calls")]))).toBe(true);
    expect(isTurnDone(latest([user, assistant([tool("prt_1", { providerExecuted: true })], "tool-calls")]))).toBe(true);
    expect(isTurnDone(latest([user, assistant([{ ...base, id: "prt_1", type: "text", text: "cut" } as Part], "length")]))).toBe(true);
    expect(hasUnreadToolResult([tool("prt_1")])).toBe(true);
  });
});
