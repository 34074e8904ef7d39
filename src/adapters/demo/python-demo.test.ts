import { describe, expect, it } from "vitest";
import { InProcessPythonHost } from "../sandbox/local/runtimes/python-host";
import { PY_BUGGY, PY_FIXED, PYTHON_DEMO_PROJECT, PYTHON_DEMO_PROMPT } from "./python-project";
import { classify } from "./steps";
import { NO_AUTO_COMPACTION, run, setupDemo, texts, toolParts } from "./test-harness";

// One real Pyodide for the file: the demo's Python runs for real.
const python = new InProcessPythonHost();

const output = (p: ReturnType<typeof toolParts>[number]) => (p.state.status === "completed" ? p.state.output : "");

describe("demo model: the Python project", () => {
  it("classifies Python and git prompts", () => {
    for (const prompt of [PYTHON_DEMO_PROMPT, "python demo", "Run unittest", "show me git", "commit it"]) expect(classify(prompt)).toBe("python");
  });

  it("writes a module and its unittest, sees them fail, fixes, sees them pass, commits and shows the log — for real", async () => {
    const setup = await setupDemo({ files: PYTHON_DEMO_PROJECT, runtimes: { python, git: true }, settings: NO_AUTO_COMPACTION });
    const { msgs } = await run(setup, PYTHON_DEMO_PROMPT);
    const tools = toolParts(msgs);
    expect(tools.map((t) => `${t.tool} ${t.state.status}`)).toEqual([
      "write completed",
      "write completed",
      "bash completed",
      "edit completed",
      "bash completed",
      "bash completed",
      "bash completed",
    ]);
    const [, , fail, , pass, commit, log] = tools.map(output);
    expect(fail).toContain("FAILED (failures=3)");
    expect(fail).toContain("AssertionError: 23.0 != 32");
    expect(pass).toContain("test_round_trip (test_temperature.ConversionTest.test_round_trip) ... ok");
    expect(pass).toMatch(/^OK$/m);
    expect(commit).toMatch(/\[main \(root-commit\) [0-9a-f]{7}\] Add temperature conversions with tests\n 3 files changed/);
    expect(log).toMatch(/^[0-9a-f]{7} Add temperature conversions with tests\n/);
    const module = await setup.sandbox.fs.readText("/workspace/temperature.py");
    expect(module).toContain(PY_FIXED);
    expect(module).not.toContain(PY_BUGGY);
    expect((await setup.sandbox.exec("git status --short")).stdout).toBe("");
    const answer = texts(msgs.at(-1));
    expect(answer).toContain("`python3 -m unittest -v` now passes all three tests:");
    expect(answer).toContain("test_freezing_point (test_temperature.ConversionTest.test_freezing_point) ... ok");
    expect(answer).toContain("Committed as **Add temperature conversions with tests**");
    expect(answer).not.toMatch(/\bRan \d+ tests? in\b/);
  }, 120_000);

  it("after a compaction the answer keeps the verdict and drops the output it no longer sees", async () => {
    const { pythonAnswer } = await import("./python-script");
    const text = pythonAnswer({ pyTests: "OK", pyCommit: "done" }, true);
    expect(text).toContain("`python3 -m unittest -v` now passes all three tests.\n");
    expect(text).not.toContain("```");
  });

  it("stops with an explanation where python3 does not run, instead of going on blind", async () => {
    const setup = await setupDemo({ files: PYTHON_DEMO_PROJECT, settings: NO_AUTO_COMPACTION });
    const { msgs } = await run(setup, PYTHON_DEMO_PROMPT);
    expect(toolParts(msgs).map((t) => t.tool)).toEqual(["write", "write", "bash"]);
    expect(texts(msgs.at(-1))).toContain("`python3` is not available in this sandbox");
  });
});
