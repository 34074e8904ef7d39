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
    // Claude Code records no cost: the step is priced from the table as tabcode prices its own (claude-sonnet-4:
    // $3 in, $15 out, $0.30 cache read, $3.75 cache write per million), never shown as $0.
    expect(finish?.type === "step-finish" && finish.cost).toBeCloseTo((4 * 3 + 1 * 15 + 11000 * 0.3 + 5120 * 3.75) / 1e6, 9);
    expect(finish?.type === "step-finish" && finish.priceUnknown).toBeFalsy();
    expect(first?.info.role === "assistant" && first.info.cost).toBeGreaterThan(0);
    expect(main?.info.unpriced).toBe(0);
  });

  it("prices a model the table does not know as unknown, not $0", () => {
    const odd = files.map((f) => ({ ...f, text: f.text.replaceAll("claude-sonnet-4-5", "some-private-model") }));
    const s = importClaudeCode(odd, NOW).sessions.find((x) => x.info.source?.id === main?.info.source?.id);
    const finishes = (s?.messages ?? []).flatMap((m) => m.parts).filter((p) => p.type === "step-finish");
    expect(finishes.length).toBeGreaterThan(0);
    expect(finishes.every((p) => p.type === "step-finish" && p.priceUnknown === true && p.cost === 0)).toBe(true);
    // The session row counts them beside its cost, so the header says "price unknown" before the messages are read.
    expect(s?.info.unpriced).toBe(finishes.length);
    expect(s?.info.cost).toBe(0);
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
    // Claude Code's compaction, not tabcode's: the divider says so and offers no undo.
    const request = main?.messages[4]?.parts[0];
    expect(request?.type === "compaction" && request.origin).toBe("claude-code");
    // The summary names no model in Claude Code's file: the session's model of the time wrote it.
    const summary = main?.messages[5]?.info;
    expect(summary?.role === "assistant" && summary.modelID).toBe("claude-sonnet-4-5-20250929");
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
