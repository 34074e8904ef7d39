import { describe, expect, it } from "vitest";
import type { ToolPart } from "../schema";
import { importCodex } from "./codex";
import { fixtureFiles } from "./test-files";

const NOW = 1_800_000_000_000;

describe("Codex CLI rollouts", () => {
  const { sessions, issues } = importCodex(fixtureFiles("codex"), NOW);
  const s = sessions[0];

  it("records the rollout id, CLI version and model, and titles it from the first real prompt", () => {
    expect(sessions).toHaveLength(1);
    expect(s?.info.source).toMatchObject({ tool: "codex", id: "019a4e2c-1b2a-7c3d-9e8f-0a1b2c3d4e5f", version: "0.53.0" });
    expect(s?.info.title).toBe("Why does GET /health return 500?");
    const answer = s?.messages.find((m) => m.info.role === "assistant");
    expect(answer?.info.role === "assistant" && answer.info.modelID).toBe("gpt-5-codex");
  });

  it("takes prompts and replies once (response items, not their event twins); injected context is synthetic", () => {
    const texts = s?.messages.flatMap((m) => m.parts).filter((p) => p.type === "text") ?? [];
    expect(texts.filter((p) => p.type === "text" && p.text.startsWith("The handler returned"))).toHaveLength(1);
    expect(texts.filter((p) => p.type === "text" && p.text.startsWith("Why does GET"))).toHaveLength(1);
    const env = texts.find((p) => p.type === "text" && p.text.startsWith("<environment_context>"));
    expect(env?.type === "text" && env.synthetic).toBe(true);
  });

  it("maps function and custom tool calls with their outputs and exit codes; an unfinished call becomes an error", () => {
    const calls = s?.messages.flatMap((m) => m.parts).filter((p): p is ToolPart => p.type === "tool") ?? [];
    expect(calls.map((c) => [c.tool, c.state.status])).toEqual([
      ["shell", "completed"],
      ["apply_patch", "completed"],
      ["exec_command", "error"],
    ]);
    expect(calls[0]?.state).toMatchObject({ input: { command: ["bash", "-lc", "rg -n health src"] }, output: "src/routes.ts:12:  app.get('/health', health)\n", metadata: { exit: 0 } });
    expect(calls[1]?.state.input).toEqual({ input: expect.stringContaining("*** Begin Patch") });
  });

  it("usage per request from last_token_usage (cached input apart), reasoning summaries, compaction as a summary", () => {
    // output_tokens holds the reasoning (total_tokens 9150 = 9000 in + 150 out, 64 of them reasoning): kept apart, so it is billed once.
    expect(s?.info.tokens).toEqual({ input: 3000 + 1500, output: 260 - 64, reasoning: 64, cache: { read: 15000, write: 0 } });
    const finishes = (s?.messages ?? []).flatMap((m) => m.parts).filter((p) => p.type === "step-finish");
    // gpt-5-codex at the gpt-5 family's prices: $1.25 in, $10 out, $0.125 cached read per million.
    const cost = finishes.reduce((n, p) => n + (p.type === "step-finish" ? p.cost : 0), 0);
    expect(cost).toBeCloseTo((4500 * 1.25 + (196 + 64) * 10 + 15000 * 0.125) / 1e6, 9);
    expect(s?.messages.flatMap((m) => m.parts).some((p) => p.type === "reasoning" && p.text.includes("Inspecting the health route"))).toBe(true);
    const summary = s?.messages.find((m) => m.info.role === "assistant" && m.info.summary);
    expect(summary?.parts[0]?.type === "text" && summary.parts[0].text).toContain("db.ping() was not awaited");
    const parentID = summary?.info.role === "assistant" ? summary.info.parentID : undefined;
    const request = s?.messages.find((m) => m.info.id === parentID)?.parts[0];
    expect(request?.type === "compaction" && request.origin).toBe("codex");
  });

  it("reports the broken line with file and line", () => {
    expect(issues).toEqual([{ at: expect.stringMatching(/^codex\/rollout-.*\.jsonl:17$/), problem: expect.stringContaining("not valid JSON") }]);
  });
});
