import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ReasoningPart, TextPart, ToolPart } from "../schema";
import { importHistoryFiles, textKind } from "./detect";
import { importOpenCodeV2Export, isOpenCodeV2Export } from "./opencode-export-v2";

const NOW = 1_800_000_000_000;
const PATH = "ses_f78c1a02bffeCccExportV2a1.json";
const text = readFileSync(new URL("./__fixtures__/opencode-2x-export.json", import.meta.url), "utf8");
const v1 = readFileSync(new URL("../../../e2e/fixtures/opencode-export.json", import.meta.url), "utf8");

describe("OpenCode 2.x session export", () => {
  it("is told apart from the 1.x export (which keeps going through the export import)", () => {
    expect(textKind({ path: PATH, text })).toBe("opencode-export-v2");
    expect(textKind({ path: "v1.json", text: v1 })).toBe("export");
    expect(isOpenCodeV2Export(JSON.parse(v1))).toBe(false);
    expect(isOpenCodeV2Export({ info: { id: "ses_x", location: "/home/dev" }, messages: [] })).toBe(true);
  });

  it("maps 2.x message records: prompt, reasoning, tool calls with content and error, usage; idle rows carry nothing", () => {
    const { sessions, issues } = importOpenCodeV2Export({ path: PATH, text }, NOW);
    expect(issues).toEqual([{ at: `${PATH}: messages[3]`, problem: "a message without a type" }]);
    const s = sessions[0];
    expect(s?.info.title).toBe("Bump the server port and rerun the tests");
    expect(s?.info.source).toMatchObject({ tool: "opencode", id: "ses_f78c1a02bffeCccExportV2a1", version: "2.0.4", updated: 1789001090000 });
    expect(s?.messages.map((m) => m.info.role)).toEqual(["user", "assistant", "assistant"]);
    const parts = s?.messages.flatMap((m) => m.parts) ?? [];
    expect(parts.filter((p): p is TextPart => p.type === "text").map((p) => p.text)).toEqual([
      "Change the server port in config.toml to 9090 and run the tests.",
      "The port is 9090 now; server.test.ts still expects 8080, so one test fails until it is updated.",
    ]);
    expect(parts.find((p): p is ReasoningPart => p.type === "reasoning")?.text).toBe("Edit the port, then run the test suite.");
    const tools = parts.filter((p): p is ToolPart => p.type === "tool");
    expect(tools.map((t) => [t.tool, t.state.status])).toEqual([
      ["edit", "completed"],
      ["shell", "error"],
    ]);
    expect(tools[0]?.state.status === "completed" && tools[0].state.output).toBe("Edit applied successfully.");
    expect(tools[1]?.state.status === "error" && tools[1].state.error).toBe("Command exited with code 1: 1 failing (server.test.ts expects port 8080)");
    expect(s?.info.tokens).toMatchObject({ input: 13900, output: 210, cache: { read: 6800 } });
    expect(s?.info.cost).toBeCloseTo(0.0061, 6);
  });

  it("goes through the history import with the other dropped files; a cut file is reported, not thrown", () => {
    const out = importHistoryFiles([{ path: PATH, text }], NOW);
    expect(out.sessions).toHaveLength(1);
    const cut = importOpenCodeV2Export({ path: "cut.json", text: text.slice(0, 400) }, NOW);
    expect(cut.sessions).toEqual([]);
    expect(cut.issues[0]?.at).toBe("cut.json");
    expect(cut.issues[0]?.problem).not.toMatch(/at position|SyntaxError|Unexpected/);
  });
});
