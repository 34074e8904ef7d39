import { describe, expect, it } from "vitest";
import { toolLog } from "../compaction/transcript";
import { importClaudeCode } from "../import/claude-code";
import { importCodex } from "../import/codex";
import { importGemini } from "../import/gemini";
import { fixtureFiles } from "../import/test-files";
import { toolMeaning } from "./tool-meaning";

const NOW = 1_800_000_000_000;

describe("toolMeaning", () => {
  it("reads tabcode's own tools and the other agents' names and inputs", () => {
    expect(toolMeaning("bash", { command: "npm test" })).toEqual({ files: [], command: "npm test" });
    expect(toolMeaning("edit", { filePath: "/workspace/a.ts", oldString: "x", newString: "y" })).toEqual({ files: [{ action: "edited", path: "/workspace/a.ts" }] });
    expect(toolMeaning("grep", { pattern: "x" })).toEqual({ files: [{ action: "searched", path: "." }] });
    expect(toolMeaning("Bash", { command: "ls -la" }).command).toBe("ls -la");
    expect(toolMeaning("Read", { file_path: "/repo/src/cli.ts" }).files).toEqual([{ action: "read", path: "/repo/src/cli.ts" }]);
    expect(toolMeaning("Write", { file_path: "notes.md", content: "x" }).files).toEqual([{ action: "written", path: "notes.md" }]);
    expect(toolMeaning("shell", { command: ["bash", "-lc", "cargo test"] }).command).toBe("cargo test");
    expect(toolMeaning("shell", { command: ["rg", "-n", "todo"] }).command).toBe("rg -n todo");
    expect(toolMeaning("exec_command", { cmd: "npm test" }).command).toBe("npm test");
    expect(toolMeaning("run_shell_command", { command: "pytest -q" }).command).toBe("pytest -q");
    expect(toolMeaning("read_file", { absolute_path: "/p/app.py" }).files).toEqual([{ action: "read", path: "/p/app.py" }]);
    expect(toolMeaning("replace", { file_path: "/p/app.py", old_string: "a", new_string: "b" }).files).toEqual([{ action: "edited", path: "/p/app.py" }]);
    expect(toolMeaning("apply_patch", { input: "*** Begin Patch\n*** Update File: src/server.ts\n@@\n-a\n+b\n*** Add File: src/health.ts\n+x\n*** End Patch" }).files).toEqual([
      { action: "edited", path: "src/server.ts" },
      { action: "edited", path: "src/health.ts" },
    ]);
    // Something unknown did nothing this can name.
    expect(toolMeaning("web_search", { query: "x" })).toEqual({ files: [] });
    expect(toolMeaning("Task", { prompt: "x" })).toEqual({ files: [] });
  });

  it("imported histories (real recorded formats) list their files and commands", () => {
    const codex = toolLog(importCodex(fixtureFiles("codex"), NOW).sessions.flatMap((s) => s.messages));
    expect(codex.commands).toEqual(["rg -n health src", "npm test"]);
    expect([...codex.files.keys()]).toEqual(["src/health.ts"]);
    const gemini = toolLog(fixtureFiles("gemini").flatMap((f) => importGemini(f, NOW).sessions.flatMap((s) => s.messages)));
    expect(Object.fromEntries([...gemini.files].map(([k, v]) => [k, [...v]]))).toMatchObject({ "/p/main.py": ["read"], src: ["searched"] });
    // Claude Code's recorded calls here: a Task (no file, no command) and a Bash that failed (listed by no one).
    const claude = importClaudeCode(fixtureFiles("claude-code"), NOW).sessions.flatMap((s) => s.messages);
    expect(toolLog(claude).commands).toEqual([]);
    expect(toolMeaning("Bash", { command: "npm test", description: "Run tests" }).command).toBe("npm test");
  });
});
