import { describe, expect, it } from "vitest";
import { buildSummaryRequest } from "../../core/compaction/summarize";
import type { LLMMessage, LLMRequest } from "../../core/ports/llm";
import { COMPACTION_QUESTION } from "../../core/conversation/to-model";
import { defaultSettings, modelConfig } from "../../core/settings";
import { demoEvents } from "./demo-llm";
import { classify } from "./steps";
import { demoSummary, demoTitle } from "./summary";
import { chatTrace, progress, transcriptTrace } from "./trace";

const model = modelConfig(defaultSettings());

function request(messages: LLMMessage[], purpose: LLMRequest["purpose"]): LLMRequest {
  return { model, system: ["sys"], messages, tools: [], maxOutputTokens: 1000, signal: new AbortController().signal, purpose };
}

const user = (text: string): LLMMessage => ({ role: "user", content: [{ type: "text", text }] });
const text = (events: ReturnType<typeof demoEvents>) => events.flatMap((e) => (e.type === "text-delta" ? [e.delta] : [])).join("");

describe("demo model: reading prompts", () => {
  it("picks a script per prompt", () => {
    expect(classify("Fix the date bug")).toBe("fix");
    expect(classify("start the demo")).toBe("fix");
    expect(classify("Explain the project")).toBe("explain");
    expect(classify("what is in this repo?")).toBe("explain");
    expect(classify("run the tests")).toBe("tests");
    expect(classify("What can you do?")).toBe("help");
    expect(classify("hello from before going offline")).toBe("help");
    expect(classify("Write a sonnet about the sea")).toBe("fallback");
    expect(classify("")).toBe("fallback");
  });

  it("reads tool calls back from a summary transcript, including cut inputs and errors", () => {
    const transcript = [
      "[User]: Fix the date bug",
      '[Assistant tool call]: read({"filePath":"/workspace/src/dates.js"})',
      "[Tool result]: 13:   const month = pad(date.getMonth());\n\n(End of file - total 39 lines)",
      '[Assistant tool call]: edit({"filePath":"/workspace/src/dates.js","oldString":"x\n[truncated]',
      "[Tool error]: oldString not found",
    ].join("\n\n");
    const trace = transcriptTrace(transcript);
    expect(trace.map((e) => e.kind)).toEqual(["user", "call", "call"]);
    const p = progress(trace);
    expect([...p.done]).toEqual(["read"]);
    expect(p.facts.bug).toBe("present");
    expect(p.lastError?.tool).toBe("edit");
  });

  it("treats a compaction's question and answer as a summary, not as a new prompt", () => {
    const trace = chatTrace([user(COMPACTION_QUESTION), { role: "assistant", content: [{ type: "text", text: '## Goal\n- The user asked: "Fix the date bug"' }] }]);
    expect(trace).toEqual([{ kind: "summary", text: '## Goal\n- The user asked: "Fix the date bug"' }]);
    expect(progress(trace).goal).toBe("Fix the date bug");
  });
});

describe("demo model: summaries and titles", () => {
  it("summarises a chat-style history (question at the end) from its tool calls", () => {
    const messages: LLMMessage[] = [
      user("Run the tests"),
      { role: "assistant", content: [{ type: "tool-call", callID: "c1", tool: "bash", input: { command: "bash scripts/check.sh", description: "check" } }] },
      { role: "tool", content: [{ type: "tool-result", callID: "c1", tool: "bash", output: "FAIL: 6 of 6 cases\n\nExit code: 1" }] },
      user("Summarise the conversation so far."),
    ];
    const summary = text(demoEvents(request(messages, "summary")));
    expect(summary).toContain('- The user asked: "Run the tests"');
    expect(summary).toContain("- The date check printed FAIL.");
    expect(summary).toContain("- [x] Ran the date check");
    expect(summary.split("\n").filter((l) => l.startsWith("## "))).toEqual(["## Goal", "## Instructions", "## Discoveries", "## Accomplished", "## Relevant files"]);
  });

  it("updates a previous summary instead of starting over", () => {
    const previous = ["## Goal", '- The user asked: "Fix the date bug"', "", "## Accomplished", "- [x] Planned the work with todowrite", "- [x] Listed the project files"].join("\n");
    const req = buildSummaryRequest({ model, head: [], previous, withMedia: false });
    const summary = demoSummary({ ...req, signal: new AbortController().signal });
    expect(summary).toContain('- The user asked: "Fix the date bug"');
    expect(summary).toContain("- [x] Listed the project files");
    expect(summary).toContain("- [ ] Read src/dates.js (next)");
  });

  it("titles from the prompt, and falls back when there is none", () => {
    expect(demoTitle(request([user("Generate a title for this conversation:\n\n  explain the project.  ")], "title"))).toBe("Explain the project");
    expect(demoTitle(request([user("Generate a title for this conversation:\n\n")], "title"))).toBe("Demo session");
  });

  it("reports usage on every finish, also for small calls", () => {
    const finish = demoEvents(request([user("Generate a title for this conversation:\n\nFix it")], "title")).at(-1);
    expect(finish).toMatchObject({ type: "finish", reason: "stop", usage: { outputTokens: 2 } });
  });
});
