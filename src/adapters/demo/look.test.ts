import { describe, expect, it } from "vitest";
import { toolsFor } from "../../core/agents/agents";
import { DEFAULT_RULES } from "../../core/permission/evaluate";
import type { LLMRequest } from "../../core/ports/llm";
import type { Ruleset, ToolPart } from "../../core/schema";
import { defaultSettings, modelConfig } from "../../core/settings";
import { bashTool, readTool, workspaceTools } from "../../core/tools/index";
import { todoWriteTool } from "../../core/tools/todo";
import { demoEvents } from "./demo-llm";
import { DEMO_BUGGY_LINE, DEMO_FIXED_LINE, DEMO_PROJECT } from "./sample-project";
import { assistants, NO_AUTO_COMPACTION, reasoning, run, setupDemo, texts, toolParts } from "./test-harness";

/** A session whose permission rules deny these tools: the app leaves them out of the request (`toolsFor`), and the broker refuses them. */
async function denying(files: Record<string, string>, ...denied: string[]) {
  const rules: Ruleset = [...DEFAULT_RULES, ...denied.map((permission) => ({ permission, pattern: "*", action: "deny" as const }))];
  const tools = toolsFor("build", [todoWriteTool, ...workspaceTools], [rules]);
  return setupDemo({ files, rules, tools, settings: NO_AUTO_COMPACTION });
}

const call = (t: ToolPart | undefined) => [t?.tool, t?.state.input, t?.state.status];
const lists = (tools: ToolPart[]) => tools.filter((t) => t.tool === "todowrite").map((t) => (t.state.input as { todos: { status: string }[] }).todos.map((x) => x.status));
const LS = { command: "ls -R /workspace", description: "List the files in the workspace" };

describe("demo model: looking at the workspace without list and glob", () => {
  it("lists the files with bash before it reads or edits anything, then fixes the sample", async () => {
    const setup = await denying(DEMO_PROJECT, "list", "glob");
    const { msgs } = await run(setup, "Fix the date bug");
    const tools = toolParts(msgs);
    expect(tools.map((t) => t.tool)).toEqual(["todowrite", "bash", "read", "edit", "bash", "todowrite"]);
    expect(call(tools[1])).toEqual(["bash", LS, "completed"]);
    expect(tools[1]?.state.status === "completed" && tools[1].state.output).toContain("dates.js");
    expect(await setup.sandbox.fs.readText("/workspace/src/dates.js")).toContain(DEMO_FIXED_LINE);
    expect(texts(assistants(msgs).at(-1))).toContain("PASS");
  });

  it("finds an empty workspace with bash and says the sample project is not there, closing its plan", async () => {
    const { msgs } = await run(await denying({}, "list", "glob"), "Fix the date bug");
    const tools = toolParts(msgs);
    expect(tools.filter((t) => t.tool !== "todowrite").map(call)).toEqual([["bash", LS, "completed"]]);
    expect(lists(tools)).toEqual([["in_progress", "pending", "pending", "pending"], ["completed", "cancelled", "cancelled", "cancelled"]]);
    const final = assistants(msgs).at(-1);
    expect(final?.info.finish).toBe("stop");
    expect(texts(final)).toContain("doesn't hold the demo's sample project");
  });

  it("explains the project only after a listing: bash when list and glob are denied", async () => {
    const { msgs } = await run(await denying(DEMO_PROJECT, "list", "glob"), "Explain the project");
    expect(toolParts(msgs).map(call)).toEqual([
      ["bash", LS, "completed"],
      ["read", { filePath: "/workspace/README.md" }, "completed"],
    ]);
    expect(texts(assistants(msgs).at(-1))).toContain("tiny-dates");
  });

  it("says plainly that it cannot look, and does nothing, when list, glob and bash are all denied", async () => {
    for (const prompt of ["Fix the date bug", "Explain the project"]) {
      const setup = await denying(DEMO_PROJECT, "list", "glob", "bash");
      const { msgs } = await run(setup, prompt);
      expect(toolParts(msgs)).toEqual([]);
      const final = assistants(msgs).at(-1);
      expect(final?.info.finish).toBe("stop");
      const text = texts(final);
      expect(text).toContain("I can't look at the files in this workspace");
      expect(text).toContain("Settings → permissions");
      expect(text).not.toMatch(/tiny-dates|Fixed|PASS/);
      expect(reasoning(final)).not.toContain("The listing shows");
      expect(await setup.sandbox.fs.readText("/workspace/src/dates.js")).toContain(DEMO_BUGGY_LINE);
    }
  });

  it("stops rather than guess when the bash listing fails", () => {
    // A shell whose ls has no -R (a WebContainer's jsh, say): the listing's output is no listing.
    const req: LLMRequest = {
      model: modelConfig(defaultSettings()),
      system: ["You are tabcode.", "Working directory: /workspace\n  Sandbox: local (in-browser)"],
      messages: [
        { role: "user", content: [{ type: "text", text: "Explain the project" }] },
        { role: "assistant", content: [{ type: "tool-call", callID: "c1", tool: "bash", input: LS }] },
        { role: "tool", content: [{ type: "tool-result", callID: "c1", tool: "bash", output: "ls: invalid option -- 'R'\n\nExit code: 2" }] },
      ],
      tools: [readTool, bashTool].map((t) => t.spec()),
      maxOutputTokens: 1000,
      signal: new AbortController().signal,
      purpose: "chat",
    };
    const events = demoEvents(req);
    expect(events.some((e) => e.type === "tool-call")).toBe(false);
    const text = events.flatMap((e) => (e.type === "text-delta" ? [e.delta] : [])).join("");
    expect(text).toContain("the listing failed");
    expect(text).toContain("invalid option");
    expect(text).not.toContain("tiny-dates");
  });
});
