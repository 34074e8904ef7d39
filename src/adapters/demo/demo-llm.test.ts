import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../core/permission/evaluate";
import type { LLMEvent, LLMRequest } from "../../core/ports/llm";
import { generateTitle } from "../../core/session/title";
import { defaultSettings, modelConfig } from "../../core/settings";
import { bashTool, listTool, readTool } from "../../core/tools/index";
import { todoWriteTool } from "../../core/tools/todo";
import { createDemoLLM, demoEvents, requestChars } from "./demo-llm";
import { DEMO_BUGGY_LINE, DEMO_FIXED_LINE, DEMO_PROJECT } from "./sample-project";
import { assistants, NO_AUTO_COMPACTION, reasoning, run, setupDemo, texts, toolParts } from "./test-harness";

const read = async (setup: Awaited<ReturnType<typeof setupDemo>>, rel: string) => new TextDecoder().decode(await setup.sandbox.fs.readFile(`${setup.sandbox.root}/${rel}`));

function chatRequest(text: string, over: Partial<LLMRequest> = {}): LLMRequest {
  return {
    model: modelConfig(defaultSettings()),
    system: ["You are tabcode.", "Working directory: /workspace\n  Sandbox: local (in-browser)"],
    messages: [{ role: "user", content: [{ type: "text", text }] }],
    tools: [todoWriteTool, readTool, bashTool, listTool].map((t) => t.spec()),
    maxOutputTokens: 1000,
    signal: new AbortController().signal,
    purpose: "chat",
    ...over,
  };
}

async function collect(events: AsyncIterable<LLMEvent>): Promise<LLMEvent[]> {
  const out: LLMEvent[] = [];
  for await (const ev of events) out.push(ev);
  return out;
}

describe("demo model: the scripted fix", () => {
  it("fixes the date bug in the sandbox through the real loop and tools", async () => {
    const setup = await setupDemo({ settings: NO_AUTO_COMPACTION });
    expect(await read(setup, "src/dates.js")).toContain(DEMO_BUGGY_LINE);
    const { msgs } = await run(setup, "Fix the date bug");

    expect(await read(setup, "src/dates.js")).toContain(DEMO_FIXED_LINE);
    const tools = toolParts(msgs);
    expect(tools.map((t) => t.tool)).toEqual(["todowrite", "list", "read", "edit", "bash", "todowrite"]);
    expect(tools.map((t) => t.state.status)).toEqual(Array(6).fill("completed"));
    const bash = tools[4];
    expect(bash?.state.status === "completed" && bash.state.output).toMatch(/^PASS: 6 of 6 cases$/m);
    expect(bash?.state.status === "completed" && bash.state.output).toContain("Exit code: 0");
    const [plan, , , edit, , done] = tools;
    expect(plan?.state.input).toMatchObject({ todos: [{ status: "in_progress" }, { status: "pending" }, { status: "pending" }, { status: "pending" }] });
    expect(done?.state.input).toMatchObject({ todos: Array(4).fill({ status: "completed" }) });
    expect(edit?.state.input).toEqual({ filePath: "/workspace/src/dates.js", oldString: DEMO_BUGGY_LINE.trim(), newString: DEMO_FIXED_LINE.trim() });

    const steps = assistants(msgs);
    expect(steps.map((m) => m.info.finish)).toEqual([...Array(6).fill("tool-calls"), "stop"]);
    for (const m of steps) expect(reasoning(m).length).toBeGreaterThan(20);
    const final = texts(steps.at(-1));
    expect(final).toContain("PASS");
    expect(final).toMatch(/scripted/);
    for (const word of ["parts", "pending", "step-finish", "context meter", "Compaction", "Fork", "revert"]) expect(final.toLowerCase()).toContain(word.toLowerCase());
    expect(final).toContain("Settings → provider");
  });

  it("reports usage like a provider: input ≈ request size, cached input from step 2, output ≈ streamed text", async () => {
    const setup = await setupDemo({ settings: NO_AUTO_COMPACTION });
    const { msgs } = await run(setup, "Fix the date bug");
    const chat = setup.llm.chat();
    const steps = assistants(msgs);
    expect(chat).toHaveLength(steps.length);
    chat.forEach(({ req, events }, i) => {
      const finish = events.at(-1);
      if (finish?.type !== "finish") throw new Error("no finish");
      expect(finish.usage.inputTokens).toBe(Math.ceil(requestChars(req) / 4));
      const streamed = events.reduce((n, e) => n + (e.type === "text-delta" || e.type === "reasoning-delta" || e.type === "tool-input-delta" ? e.delta.length : 0), 0);
      expect(Math.abs((finish.usage.outputTokens ?? 0) - streamed / 4)).toBeLessThanOrEqual(3);
      const t = steps[i]?.info.tokens;
      if (i === 0) expect(t?.cache.read).toBe(0);
      else {
        expect(t?.cache.read).toBeGreaterThan(1000);
        expect((t?.cache.read ?? 0) + (t?.input ?? 0)).toBe(finish.usage.inputTokens);
      }
    });
    const sizes = chat.map((c) => requestChars(c.req));
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
  });

  it("is deterministic: two runs send the same tool inputs and write the same words", async () => {
    const shape = async () => {
      const { msgs } = await run(await setupDemo(), "Fix the date bug");
      return { tools: toolParts(msgs).map((t) => [t.tool, t.state.input]), words: assistants(msgs).map((m) => [reasoning(m), texts(m)]) };
    };
    expect(await shape()).toEqual(await shape());
  });

  it("decides from the history alone: a second request finds the bug already fixed", async () => {
    const setup = await setupDemo({ settings: NO_AUTO_COMPACTION });
    const first = await run(setup, "Fix the date bug");
    const { msgs } = await run(setup, "fix the date bug again", first.sessionID);
    const second = msgs.slice(first.msgs.length);
    expect(toolParts(second).map((t) => t.tool)).toEqual(["todowrite", "list", "read", "bash", "todowrite"]);
    expect(texts(assistants(second).at(-1))).toContain("Nothing to fix");
  });
});

describe("demo model: other prompts", () => {
  it("explains the project after listing it and reading the README", async () => {
    const { msgs } = await run(await setupDemo(), "Explain the project");
    expect(toolParts(msgs).map((t) => [t.tool, t.state.status])).toEqual([
      ["list", "completed"],
      ["read", "completed"],
    ]);
    expect(toolParts(msgs)[1]?.state.input).toEqual({ filePath: "/workspace/README.md" });
    expect(texts(assistants(msgs).at(-1))).toContain("tiny-dates");
  });

  it("runs the tests and reports the failure honestly", async () => {
    const setup = await setupDemo();
    const { msgs } = await run(setup, "Run the tests");
    const [bash] = toolParts(msgs);
    expect(bash?.state.input).toMatchObject({ command: "bash scripts/check.sh" });
    expect(bash?.state.status === "completed" && bash.state.output).toContain("FAIL formatDate(2024-03-05T12:00:00) = 2024-02-05, expected 2024-03-05");
    expect(texts(assistants(msgs).at(-1))).toContain("**fails**");
    expect(await read(setup, "src/dates.js")).toContain(DEMO_BUGGY_LINE);
  });

  it("says what it can do without calling tools (also when greeted)", async () => {
    const { msgs } = await run(await setupDemo(), "hello from before going offline");
    expect(toolParts(msgs)).toHaveLength(0);
    const text = texts(assistants(msgs).at(-1));
    expect(text).toContain("Fix the date bug");
    // The offline e2e spec greets the demo and looks for this sentence.
    expect(text).toContain("This is **tabcode's demo model**");
  });

  it("answers anything else honestly and says how to connect a real model", async () => {
    const { msgs } = await run(await setupDemo(), "Write a haiku about databases");
    expect(toolParts(msgs)).toHaveLength(0);
    const a = assistants(msgs);
    expect(a).toHaveLength(1);
    const text = texts(a[0]);
    expect(text).toContain("This is **tabcode's demo model**");
    expect(text).toContain("Settings → provider");
    expect(text).toContain("stays in this browser");
  });
});

describe("demo model: failures and limits", () => {
  it("says so and stops when a tool fails", async () => {
    // src/dates.js is listed, but it is not text: the read fails.
    const files = { ...DEMO_PROJECT, "src/dates.js": "\u0000\u0001\u0002\u0003 not text" };
    const { msgs } = await run(await setupDemo({ files }), "Fix the date bug");
    const tools = toolParts(msgs);
    expect(tools.map((t) => [t.tool, t.state.status])).toEqual([
      ["todowrite", "completed"],
      ["list", "completed"],
      ["read", "error"],
    ]);
    const final = assistants(msgs).at(-1);
    expect(final?.info.finish).toBe("stop");
    expect(texts(final)).toContain("The `read` call failed: *Cannot read binary file: /workspace/src/dates.js*");
  });

  it("says the workspace lacks the sample project instead of reading files the listing did not show", async () => {
    // A new session on the demo model starts with an empty workspace; another project is no better.
    for (const files of [{}, { "app.py": "print('hi')\n", "README.md": "# My app\n" }] as Record<string, string>[]) {
      for (const prompt of ["Fix the date bug", "Explain the project"]) {
        const { msgs } = await run(await setupDemo({ files }), prompt);
        const tools = toolParts(msgs);
        expect(tools.filter((t) => t.tool !== "todowrite").map((t) => [t.tool, t.state.status])).toEqual([["list", "completed"]]);
        // A plan it made is closed before it stops: the todo panel shows no work that will never happen.
        const lists = tools.filter((t) => t.tool === "todowrite").map((t) => (t.state.input as { todos: { status: string }[] }).todos.map((x) => x.status));
        if (prompt.startsWith("Fix")) expect(lists).toEqual([["in_progress", "pending", "pending", "pending"], ["completed", "cancelled", "cancelled", "cancelled"]]);
        else expect(lists).toEqual([]);
        const final = assistants(msgs).at(-1);
        expect(final?.info.finish).toBe("stop");
        expect(texts(final)).toContain("doesn't hold the demo's sample project");
        expect(texts(final)).toContain("Restart the tour");
        expect(reasoning(final)).not.toContain("The listing shows a single source file");
      }
    }
  });

  it("runs the tests in a workspace without the sample project, looks for other tests, and reports no results it did not get", async () => {
    for (const files of [{}, { "app.py": "print('hi')\n", "README.md": "# My app\n" }] as Record<string, string>[]) {
      const { msgs } = await run(await setupDemo({ files }), "Run the tests");
      const tools = toolParts(msgs);
      // The check is not there: a listing before the answer (no Python demo tests either).
      expect(tools.map((t) => [t.tool, t.state.status])).toEqual([["bash", "completed"], ["list", "completed"]]);
      expect(tools[0]?.state.status === "completed" && tools[0].state.output).toContain("scripts/check.sh: No such file or directory");
      const final = assistants(msgs).at(-1);
      expect(final?.info.finish).toBe("stop");
      const text = texts(final);
      // What the check printed, then why there is nothing to report and where to go.
      expect(text).toContain("No such file or directory");
      expect(text).toContain("doesn't hold the demo's sample project");
      expect(text).toContain("no test results");
      expect(text).toContain("I also listed the files: there are no tests of the Python demo");
      expect(text).toContain("Restart the tour");
      expect(text).not.toMatch(/\*\*fails\*\*|formatDate|Nothing to fix/);
      expect(reasoning(final)).not.toContain("Report what it printed");
    }
  });

  it("does not take another project's check for the sample's test results", async () => {
    // A check that passes, but not over the sample's cases; in a WebContainer, npm test finding no package.json.
    const theirs = await run(await setupDemo({ files: { "scripts/check.sh": "echo 'PASS: all good'\n" } }), "Run the tests");
    const npm = "npm error code ENOENT\nnpm error syscall open\nnpm error path /home/project/package.json\nnpm error errno -2\nnpm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/home/project/package.json'\n\nExit code: 254";
    const events = demoEvents(
      chatRequest("Run the tests", {
        system: ["You are tabcode.", "Working directory: /home/project\n  Sandbox: webcontainer (in-browser)"],
        messages: [
          { role: "user", content: [{ type: "text", text: "Run the tests" }] },
          { role: "assistant", content: [{ type: "tool-call", callID: "c1", tool: "bash", input: { command: "npm test", description: "Run the date tests with node" } }] },
          { role: "tool", content: [{ type: "tool-result", callID: "c1", tool: "bash", output: npm }] },
          // The check was not there, so the demo looked before answering.
          { role: "assistant", content: [{ type: "tool-call", callID: "c2", tool: "list", input: { path: "/home/project" } }] },
          { role: "tool", content: [{ type: "tool-result", callID: "c2", tool: "list", output: "/home/project/\n  README.md" }] },
        ],
      }),
    );
    const webcontainer = events.flatMap((e) => (e.type === "text-delta" ? [e.delta] : [])).join("");
    expect(events.some((e) => e.type === "tool-call")).toBe(false);
    for (const text of [texts(assistants(theirs.msgs).at(-1)), webcontainer]) {
      expect(text).toContain("no test results");
      expect(text).toContain("Restart the tour");
      expect(text).not.toMatch(/All the cases|Nothing to fix|\*\*fails\*\*/);
    }
    expect(webcontainer).toContain("doesn't hold the demo's sample project");
    expect(texts(assistants(theirs.msgs).at(-1))).toContain("PASS: all good");
  });

  it("stops gracefully when a permission rule refuses the edit", async () => {
    const setup = await setupDemo({ rules: [...DEFAULT_RULES, { permission: "edit", pattern: "*", action: "deny" }] });
    const { msgs } = await run(setup, "Fix the date bug");
    expect(toolParts(msgs).at(-1)?.state.status).toBe("error");
    expect(texts(assistants(msgs).at(-1))).toMatch(/The `edit` call failed: \*A permission rule forbids this call/);
    expect(await read(setup, "src/dates.js")).toContain(DEMO_BUGGY_LINE);
  });

  it("explains instead of acting when a tool it needs is not offered", async () => {
    const { msgs } = await run(await setupDemo({ tools: [todoWriteTool, readTool, listTool, bashTool] }), "Fix the date bug");
    expect(toolParts(msgs).map((t) => t.tool)).toEqual(["todowrite", "list", "read"]);
    expect(texts(assistants(msgs).at(-1))).toContain("the `edit` tool");
  });

  it("will not guess an edit when src/dates.js is not the sample's", async () => {
    const files = { ...DEMO_PROJECT, "src/dates.js": "export const formatDate = (d) => d.toISOString().slice(0, 10);\n" };
    const setup = await setupDemo({ files });
    const { msgs } = await run(setup, "Fix the date bug");
    expect(toolParts(msgs).map((t) => t.tool)).toEqual(["todowrite", "list", "read"]);
    expect(texts(assistants(msgs).at(-1))).toContain("won't guess an edit");
  });

  it("answers in text only on the max-steps wrap-up", async () => {
    const { msgs } = await run(await setupDemo({ settings: { maxSteps: 3 } }), "Fix the date bug");
    const steps = assistants(msgs);
    expect(steps).toHaveLength(3);
    expect(steps[2]?.parts.some((p) => p.type === "tool")).toBe(false);
    const text = texts(steps[2]);
    expect(text).toContain("step limit");
    expect(text).toContain("Done: Planned the work with todowrite; Listed the project files.");
    expect(text).toContain("Left: Read src/dates.js;");
  });

  it("stops streaming when the signal aborts", async () => {
    const controller = new AbortController();
    const seen: LLMEvent[] = [];
    for await (const ev of createDemoLLM(1).stream(chatRequest("Fix the date bug", { signal: controller.signal }))) {
      seen.push(ev);
      if (seen.length === 3) controller.abort();
    }
    expect(seen).toHaveLength(3);
    const aborted = new AbortController();
    aborted.abort();
    expect(await collect(createDemoLLM(0).stream(chatRequest("Fix the date bug", { signal: aborted.signal })))).toEqual([]);
  });
});

describe("demo model: small calls", () => {
  it("titles the session from the prompt", async () => {
    const model = modelConfig(defaultSettings());
    expect(await generateTitle(createDemoLLM(0), model, "fix the date bug please!", new AbortController().signal)).toBe("Fix the date bug please");
    const long = await generateTitle(createDemoLLM(0), model, "Could you please explain how the formatDate function decides the month and why", new AbortController().signal);
    expect(long.length).toBeLessThanOrEqual(50);
    expect(long).toMatch(/^Could you please explain how the formatDate/);
  });

  it("answers a connection test with OK", async () => {
    const events = await collect(createDemoLLM(0).stream(chatRequest("Reply with OK", { purpose: "test", tools: [] })));
    expect(events.flatMap((e) => (e.type === "text-delta" ? [e.delta] : [])).join("")).toBe("OK");
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "stop" });
  });

  it("runs npm test instead of the shell check in a WebContainer", () => {
    const events = demoEvents(chatRequest("Run the tests", { system: ["You are tabcode.", "Working directory: /home/project\n  Sandbox: webcontainer (in-browser)"] }));
    const call = events.find((e) => e.type === "tool-call");
    expect(call?.type === "tool-call" && JSON.parse(call.input)).toMatchObject({ command: "npm test" });
  });

  it("streams word-sized deltas, reasoning first", () => {
    const events = demoEvents(chatRequest("Fix the date bug"));
    expect(events[0]?.type).toBe("reasoning-start");
    const deltas = events.flatMap((e) => (e.type === "text-delta" ? [e.delta] : []));
    expect(deltas.length).toBeGreaterThan(5);
    for (const d of deltas) expect(d.trim().split(/\s+/)).toHaveLength(1);
  });
});
