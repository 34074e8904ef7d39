import { describe, expect, it } from "vitest";
import { memoryFS } from "../../testing/memory-fs";
import type { MessageWithParts, ToolPart } from "../schema";
import { discoverRules } from "./discover";
import { loadedRules, nestedRulesFor, syncShownRules } from "./nested";

describe("AGENTS.local.md", () => {
  it("is read next to AGENTS.md, in the system prompt and in nested folders", async () => {
    const fs = memoryFS({
      "/ws/AGENTS.md": "team rules",
      "/ws/AGENTS.local.md": "my own rules",
      "/ws/pkg/AGENTS.local.md": "my pkg rules",
      "/ws/pkg/a.ts": "code",
    });
    const r = await discoverRules(fs, { cwd: "/ws", root: "/ws" });
    expect(r.files).toEqual(["/ws/AGENTS.md", "/ws/AGENTS.local.md"]);
    const nested = await nestedRulesFor(fs, "/ws/pkg/a.ts", "/ws", new Set());
    expect(nested.files.map((f) => f.path)).toEqual(["/ws/pkg/AGENTS.local.md"]);
  });
});

function readPart(loaded: string[], compacted?: number): MessageWithParts {
  const part: ToolPart = {
    id: "prt_0000000000010000000000000",
    sessionID: "ses_0000000000000000000000001",
    messageID: "msg_0000000000010000000000000",
    type: "tool",
    callID: "c1",
    tool: "read",
    state: { status: "completed", input: {}, output: "…", title: "a.ts", metadata: { loaded }, time: { start: 1, end: 2, ...(compacted ? { compacted } : {}) } },
  };
  return {
    info: { id: "msg_0000000000010000000000000", sessionID: part.sessionID, role: "assistant", parentID: "msg_0", time: { created: 1 }, modelID: "m", providerID: "p", agent: "build", cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } },
    parts: [part],
  };
}

describe("nested rules shown again once their read is gone from the model's view", () => {
  it("a pruned (or summarised-away) read no longer counts as shown; a visible one does", async () => {
    const fs = memoryFS({ "/ws/pkg/AGENTS.md": "pkg rules", "/ws/pkg/a.ts": "code" });
    const state = new Map<string, unknown>();
    expect((await nestedRulesFor(fs, "/ws/pkg/a.ts", "/ws", loadedRules(state))).files).toHaveLength(1);
    // While the read that carried them is sent, they are not repeated.
    syncShownRules(state, [readPart(["/ws/pkg/AGENTS.md"])]);
    expect((await nestedRulesFor(fs, "/ws/pkg/a.ts", "/ws", loadedRules(state))).files).toHaveLength(0);
    // Pruned: the model no longer sees them, so the next read shows them again.
    syncShownRules(state, [readPart(["/ws/pkg/AGENTS.md"], 5)]);
    expect((await nestedRulesFor(fs, "/ws/pkg/a.ts", "/ws", loadedRules(state))).files).toHaveLength(1);
    // Summarised: the message is not in the sent history at all.
    syncShownRules(state, []);
    expect((await nestedRulesFor(fs, "/ws/pkg/a.ts", "/ws", loadedRules(state))).files).toHaveLength(1);
  });

  it("keeps the system prompt's own files as shown", () => {
    const state = new Map<string, unknown>();
    loadedRules(state, ["/ws/AGENTS.md"]);
    syncShownRules(state, []);
    expect([...loadedRules(state)]).toEqual(["/ws/AGENTS.md"]);
  });
});
