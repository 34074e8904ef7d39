import { describe, expect, it } from "vitest";
import { COMPACTION_QUESTION } from "../../core/conversation/to-model";
import type { ToolPart } from "../../core/schema";
import { defaultSettings, modelConfig } from "../../core/settings";
import { bashTool, listTool } from "../../core/tools/index";
import { InProcessPythonHost } from "../sandbox/local/runtimes/python-host";
import { createDemoLLM, demoEvents } from "./demo-llm";
import { PY_MODULE, PY_MODULE_TEXT, PY_TEST, PY_TEST_TEXT, PYTHON_DEMO_PROJECT, PYTHON_DEMO_PROMPT } from "./python-project";
import { DEMO_PROJECT } from "./sample-project";
import { assistants, NO_AUTO_COMPACTION, RecordingLLM, reasoning, run, setupDemo, texts, toolParts } from "./test-harness";

// One real Pyodide for the file: the tests run for real.
const python = new InProcessPythonHost();

const commands = (tools: ToolPart[]) => tools.map((t) => `${t.tool} ${t.tool === "bash" ? String(t.state.input.command) : ""} ${t.state.status}`.replace(/ +/g, " "));
/** The Python project with its tests written (the first draft: the tests fail). */
const PY_PROJECT = { ...PYTHON_DEMO_PROJECT, [PY_MODULE]: PY_MODULE_TEXT, [PY_TEST]: PY_TEST_TEXT };

describe("demo model: Run the tests in the Python demo's workspace", () => {
  it("after the Python demo, runs its tests with python3 (not the date check) and reports they pass", async () => {
    const setup = await setupDemo({ files: PYTHON_DEMO_PROJECT, runtimes: { python, git: true }, settings: NO_AUTO_COMPACTION });
    const first = await run(setup, PYTHON_DEMO_PROMPT);
    const { msgs } = await run(setup, "Run the tests", first.sessionID);
    const turn = msgs.slice(first.msgs.length);
    expect(commands(toolParts(turn))).toEqual(["bash python3 -m unittest -v completed"]);
    const final = assistants(turn).at(-1);
    expect(final?.info.finish).toBe("stop");
    const text = texts(final);
    expect(text).toContain("I ran `python3 -m unittest -v`: all 3 tests pass");
    expect(text).toContain("test_freezing_point (test_temperature.ConversionTest.test_freezing_point) ... ok");
    expect(text).not.toMatch(/check\.sh|sample project|no test results|\*\*fails?\*\*/);
    expect(reasoning(assistants(turn)[0])).toContain(PY_TEST);
  }, 120_000);

  it("in a fresh session, finds no date check, looks, then runs the Python tests and names the failures", async () => {
    const setup = await setupDemo({ files: PY_PROJECT, runtimes: { python, git: true }, settings: NO_AUTO_COMPACTION });
    const { msgs } = await run(setup, "Run the tests");
    const tools = toolParts(msgs);
    expect(commands(tools)).toEqual(["bash bash scripts/check.sh completed", "list completed", "bash python3 -m unittest -v completed"]);
    const text = texts(assistants(msgs).at(-1));
    expect(text).toContain("I ran `python3 -m unittest -v`: **3 of 3 tests fail**: `test_boiling_point`, `test_freezing_point`, `test_round_trip`");
    expect(text).toContain("AssertionError: 23.0 != 32");
    expect(text).not.toMatch(/all 3 tests pass|no test results|Nothing to fix/);
  }, 120_000);

  it("says python3 is not available when the sandbox has none, and claims no result", async () => {
    const setup = await setupDemo({ files: PY_PROJECT, settings: NO_AUTO_COMPACTION });
    const { msgs } = await run(setup, "Run the tests");
    expect(commands(toolParts(msgs))).toEqual(["bash bash scripts/check.sh completed", "list completed", "bash python3 -m unittest -v completed"]);
    const text = texts(assistants(msgs).at(-1));
    expect(text).toContain("`python3` is not available in this sandbox");
    expect(text).not.toMatch(/tests pass|tests fail|\*\*fails?\*\*/);
  });

  it("reports that no tests ran when the test file holds none", async () => {
    const files = { ...PYTHON_DEMO_PROJECT, [PY_TEST]: "import unittest\n" };
    const setup = await setupDemo({ files, runtimes: { python, git: true }, settings: NO_AUTO_COMPACTION });
    const { msgs } = await run(setup, "Run the tests");
    expect(commands(toolParts(msgs))).toEqual(["bash bash scripts/check.sh completed", "list completed", "bash python3 -m unittest -v completed"]);
    const text = texts(assistants(msgs).at(-1));
    expect(text).toContain("found no tests to run");
    expect(text).not.toMatch(/tests pass|tests fail|\*\*fails?\*\*/);
  }, 120_000);

  it("runs both when the session knows both projects: the date check, then the Python tests", async () => {
    // The guided date demo (its AGENTS.md in the system prompt, as the app sends it), then the Python demo in the same workspace.
    const rules = DEMO_PROJECT["AGENTS.md"] ?? "";
    const llm = new RecordingLLM({ stream: (req) => createDemoLLM(0).stream({ ...req, system: [...req.system, rules] }) });
    const setup = await setupDemo({ files: DEMO_PROJECT, runtimes: { python, git: true }, settings: NO_AUTO_COMPACTION, llm });
    const first = await run(setup, "Fix the date bug");
    await run(setup, PYTHON_DEMO_PROMPT, first.sessionID);
    const before = (await setup.store.messages(first.sessionID)).length;
    const { msgs } = await run(setup, "Run the tests", first.sessionID);
    const turn = msgs.slice(before);
    expect(commands(toolParts(turn))).toEqual(["bash bash scripts/check.sh completed", "bash python3 -m unittest -v completed"]);
    const text = texts(assistants(turn).at(-1));
    expect(text).toContain("I ran `bash scripts/check.sh`. All the cases in `src/dates.test.js` pass:");
    expect(text).toContain("I also ran `python3 -m unittest -v`: all 3 tests pass:");
  }, 120_000);

  it("where the sandbox has no python3 (WebContainer), says so instead of running or reporting the Python tests", () => {
    const events = demoEvents({
      model: modelConfig(defaultSettings()),
      system: ["You are tabcode.", "Working directory: /home/project\n  Sandbox: webcontainer (in-browser)"],
      messages: [
        { role: "user", content: [{ type: "text", text: PYTHON_DEMO_PROMPT }] },
        { role: "assistant", content: [{ type: "tool-call", callID: "c1", tool: "write", input: { filePath: `/home/project/${PY_TEST}`, content: PY_TEST_TEXT } }] },
        { role: "tool", content: [{ type: "tool-result", callID: "c1", tool: "write", output: "Wrote the file." }] },
        { role: "assistant", content: [{ type: "text", text: "Done." }] },
        { role: "user", content: [{ type: "text", text: "Run the tests" }] },
      ],
      tools: [bashTool, listTool].map((t) => t.spec()),
      maxOutputTokens: 1000,
      signal: new AbortController().signal,
      purpose: "chat",
    });
    expect(events.some((e) => e.type === "tool-call")).toBe(false);
    const text = events.flatMap((e) => (e.type === "text-delta" ? [e.delta] : [])).join("");
    expect(text).toContain("`python3` is not available in this sandbox, so I could not run the Python tests");
    expect(text).not.toMatch(/tests pass|tests fail|check\.sh|npm test/);
  });

  it("still knows the Python project after a compaction: the summary's record of the tests is enough", () => {
    const summary = ['## Goal\n- The user asked: "Write a Python module with tests"', "## Accomplished\n- [x] Wrote test_temperature.py\n- [x] Ran the Python tests"].join("\n\n");
    const events = demoEvents({
      model: modelConfig(defaultSettings()),
      system: ["You are tabcode.", "Working directory: /workspace\n  Sandbox: local (in-browser)\n  Programs: a shell, python3, git"],
      messages: [
        { role: "user", content: [{ type: "text", text: COMPACTION_QUESTION }] },
        { role: "assistant", content: [{ type: "text", text: summary }] },
        { role: "user", content: [{ type: "text", text: "Run the tests" }] },
      ],
      tools: [bashTool, listTool].map((t) => t.spec()),
      maxOutputTokens: 1000,
      signal: new AbortController().signal,
      purpose: "chat",
    });
    const call = events.find((e) => e.type === "tool-call");
    expect(call?.type === "tool-call" && JSON.parse(call.input)).toEqual({ command: "python3 -m unittest -v", description: "Run the Python tests" });
  });
});
