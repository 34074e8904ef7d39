import { describe, expect, it } from "vitest";
import type { Part, ToolPart } from "../schema";
import { importClaudeCode } from "./claude-code";
import { fixtureFiles } from "./test-files";

const NOW = 1_800_000_000_000;
const tools = (parts: Part[]) => parts.filter((p): p is ToolPart => p.type === "tool");

describe("Claude Code transcripts", () => {
  const files = fixtureFiles("claude-code");
  const { sessions, issues } = importClaudeCode(files, NOW);
  const main = sessions.find((s) => s.info.source?.id === "3f2c9a1e-7b4d-4e8a-9c1f-2d5e6a7b8c9d");

  it("maps the main session with its title, version and source id", () => {
    expect(sessions).toHaveLength(2);
    expect(main?.info).toMatchObject({ title: "Add --done to list", version: "2.0.28", source: { tool: "claude-code", version: "2.0.28" } });
  });

  it("merges the lines of one API response into one assistant message and counts its usage once", () => {
    const first = main?.messages[1];
    expect(first?.info.role).toBe("assistant");
    expect(first?.parts.map((p) => p.type)).toEqual(["step-start", "reasoning", "text", "tool", "step-finish"]);
    const finish = first?.parts.find((p) => p.type === "step-finish");
    expect(finish?.type === "step-finish" && finish.tokens).toEqual({ input: 4, output: 1, reasoning: 0, cache: { read: 11000, write: 5120 } });
    expect(main?.info.tokens.cache.read).toBe(11000 + 16100 + 16400 + 3000);
  });

  it("attaches tool results (text, arrays, errors) to their calls", () => {
    const all = tools(main?.messages.flatMap((m) => m.parts) ?? []);
    expect(all.map((t) => [t.tool, t.state.status])).toEqual([
      ["Read", "completed"],
      ["Task", "completed"],
      ["Bash", "error"],
    ]);
    expect(all[0]?.state).toMatchObject({ input: { file_path: "/Users/dev/todo-app/src/cli.ts" }, output: expect.stringContaining("import { list }") });
    expect(all[1]?.state.status === "completed" && all[1].state.output).toBe("test/list.test.ts covers list().");
    expect(all[2]?.state.status === "error" && all[2].state.error).toBe("Error: 1 test failed");
  });

  it("follows the shown branch, turns the compact summary into a summary message, marks meta prompts synthetic", () => {
    expect(JSON.stringify(main)).not.toContain("ABANDONED BRANCH");
    const roles = main?.messages.map((m) => (m.info.role === "assistant" && m.info.summary ? "summary" : m.info.role));
    expect(roles).toEqual(["user", "assistant", "assistant", "assistant", "user", "summary", "user", "assistant"]);
    expect(main?.messages[4]?.parts[0]?.type).toBe("compaction");
    const meta = main?.messages[6]?.parts[0];
    expect(meta?.type === "text" && meta.synthetic).toBe(true);
  });

  it("imports the sidechain as a child session of its caller", () => {
    const child = sessions.find((s) => s.info.source?.id.endsWith(":agent-7a1b2c3d"));
    expect(child?.parentSourceID).toBe("3f2c9a1e-7b4d-4e8a-9c1f-2d5e6a7b8c9d");
    expect(child?.messages.map((m) => m.info.role)).toEqual(["user", "assistant"]);
  });

  it("reports the broken line by file and line number and keeps the rest", () => {
    expect(issues).toEqual([{ at: "claude-code/session.jsonl:13", problem: expect.stringContaining("not valid JSON") }]);
  });
});
