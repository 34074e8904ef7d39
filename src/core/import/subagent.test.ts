import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import type { Session, ToolPart } from "../schema";
import { importClaudeCode } from "./claude-code";
import { subagentSession, subagentSourceID } from "./subagent";

const FIX = "src/core/import/__fixtures__/claude-code";

function taskPart(tool: string, metadata: Record<string, unknown>): ToolPart {
  return {
    id: "prt_1",
    sessionID: "ses_parent",
    messageID: "msg_1",
    type: "tool",
    callID: "call_1",
    tool,
    state: { status: "completed", input: { prompt: "look" }, output: "done", title: "", metadata, time: { start: 1, end: 2 } },
  } as ToolPart;
}

describe("subagent links", () => {
  it("follows a real Claude Code Task call to the imported subagent transcript", () => {
    const files = ["session.jsonl", "agent-7a1b2c3d.jsonl"].map((f) => ({ path: f, text: readFileSync(`${FIX}/${f}`, "utf8") }));
    const { sessions } = importClaudeCode(files, 1);
    const parent = sessions.find((s) => s.parentSourceID === undefined && s.messages.some((m) => m.parts.some((p) => p.type === "tool" && p.tool === "Task")));
    expect(parent).toBeDefined();
    if (!parent) return;
    const task = parent.messages.flatMap((m) => m.parts).find((p): p is ToolPart => p.type === "tool" && p.tool === "Task");
    expect(task).toBeDefined();
    if (!task) return;
    const all = sessions.map((s) => s.info);
    const child = subagentSession(parent.info, task, all);
    expect(child?.source?.id).toBe(`${parent.info.source?.id}:agent-7a1b2c3d`);
    expect(sessions.find((s) => s.info.id === child?.id)?.parentSourceID).toBe(parent.info.source?.id);
    // Without the transcript imported, there is nothing to link to.
    expect(subagentSession(parent.info, task, all.filter((s) => s.id !== child?.id))).toBeUndefined();
  });

  it("reads OpenCode's task metadata, matched within the same tool's imports", () => {
    const parent: Pick<Session, "id" | "source"> = { id: "ses_p", source: { tool: "opencode", id: "ses_src_parent", updated: 1, importedAt: 1 } };
    const part = taskPart("task", { sessionId: "ses_src_child", summary: [] });
    expect(subagentSourceID(parent, part)).toBe("ses_src_child");
    const sessions = [
      { id: "ses_other", source: { tool: "claude-code", id: "ses_src_child", updated: 1, importedAt: 1 } },
      { id: "ses_c", source: { tool: "opencode", id: "ses_src_child", updated: 1, importedAt: 1 } },
    ];
    expect(subagentSession(parent, part, sessions)?.id).toBe("ses_c");
    // A session with no source (an export read by Import file) keeps the ids it names.
    expect(subagentSession({ id: "ses_p" }, part, [{ id: "ses_src_child" }])?.id).toBe("ses_src_child");
  });

  it("names nothing for other tools, unfinished calls, or a call that does not say", () => {
    const parent: Pick<Session, "id" | "source"> = { id: "ses_p", source: { tool: "claude-code", id: "abc", updated: 1, importedAt: 1 } };
    expect(subagentSourceID(parent, taskPart("bash", { sessionId: "x" }))).toBeUndefined();
    expect(subagentSourceID(parent, taskPart("Task", {}))).toBeUndefined();
    expect(subagentSourceID(parent, taskPart("Agent", { result: { agentId: "9" } }))).toBe("abc:agent-9");
    const running = { ...taskPart("task", { sessionId: "x" }), state: { status: "running", input: {}, time: { start: 1 } } } as ToolPart;
    expect(subagentSourceID(parent, running)).toBeUndefined();
  });
});
