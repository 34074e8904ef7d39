import { describe, expect, it } from "vitest";
import type { ToolPart } from "../schema";
import { importGemini } from "./gemini";
import { fixtureFiles } from "./test-files";

const NOW = 1_800_000_000_000;
const file = (name: string) => {
  const f = fixtureFiles("gemini").find((x) => x.path.endsWith(name));
  if (!f) throw new Error(name);
  return f;
};

describe("Gemini CLI", () => {
  it("maps a saved chat: thoughts, text, tool calls with results, tokens; notices skipped", () => {
    const { sessions, issues } = importGemini(file("session-2025-09-12T14-00-b7e1c2d3.json"), NOW);
    expect(issues).toEqual([]);
    const s = sessions[0];
    expect(s?.info.source).toMatchObject({ tool: "gemini-cli", id: "b7e1c2d3-4f5a-6b7c-8d9e-0f1a2b3c4d5e" });
    expect(s?.messages.map((m) => m.info.role)).toEqual(["user", "assistant", "assistant"]);
    const calls = s?.messages.flatMap((m) => m.parts).filter((p): p is ToolPart => p.type === "tool") ?? [];
    expect(calls.map((c) => [c.tool, c.state.status])).toEqual([
      ["search_file_content", "completed"],
      ["run_shell_command", "error"],
    ]);
    expect(calls[0]?.state.status === "completed" && calls[0].state.output).toBe("Found 2 matches");
    expect(s?.info.tokens).toMatchObject({ input: 2200 + 10, output: 40, reasoning: 120, cache: { read: 3000 } });
    expect(JSON.stringify(s)).not.toContain("Request cancelled");
  });

  it("upserts JSONL recording records by id and applies $set header updates", () => {
    const s = importGemini(file("session-recording.jsonl"), NOW).sessions[0];
    expect(s?.info.title).toBe("Greeting");
    const texts = s?.messages.flatMap((m) => m.parts).filter((p) => p.type === "text").map((p) => (p.type === "text" ? p.text : ""));
    expect(texts).toEqual(["Say hi", "Hi!"]);
  });

  it("maps a /chat save checkpoint (role/parts) with function calls and responses", () => {
    const s = importGemini(file("checkpoint-main-py.json"), NOW).sessions[0];
    expect(s?.info.title).toBe("main-py");
    const call = s?.messages.flatMap((m) => m.parts).find((p): p is ToolPart => p.type === "tool");
    expect(call?.state).toMatchObject({ status: "completed", output: "print('hi')" });
  });
});
