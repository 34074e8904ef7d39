import { describe, expect, it } from "vitest";
import type { ToolPart } from "../../../core/schema";
import { commandName, fromEntry, fromTool, shownText } from "./terminal-lines";

const bash = (metadata: Record<string, unknown>, output: string): ToolPart => ({
  id: "prt_1",
  sessionID: "ses_1",
  messageID: "msg_1",
  callID: "call_1",
  type: "tool",
  tool: "bash",
  state: { status: "completed", input: { command: "sleep 60", description: "wait" }, output, title: "wait", metadata, time: { start: 1, end: 2 } },
});

describe("the terminal's lines, as a person reads them", () => {
  it("a model command stopped by the user: 'stopped', not failed, without the notes for the model or the shell's abort line", () => {
    const l = fromTool(bash({ exit: 124, aborted: true, output: "tick\nbash: execution aborted\n" }, "tick\nbash: execution aborted\n\n<bash_metadata>\nThe user aborted the command\n</bash_metadata>\n\nExit code: 124"), 0);
    expect(l).toMatchObject({ status: "stopped", failed: false, output: "tick" });
  });

  it("without the kept output (older parts), the result loses its notes and exit line; a non-zero exit fails, a timeout says so", () => {
    expect(fromTool(bash({ exit: 2 }, "oops\n\nExit code: 2"), 0)).toMatchObject({ status: "exit 2", failed: true, output: "oops" });
    expect(fromTool(bash({ exit: 124, timedOut: true }, "x\n\n<bash_metadata>\nbash tool terminated the command after exceeding the timeout of 5 ms\n</bash_metadata>\n\nExit code: 124"), 0)).toMatchObject({
      status: "timed out",
      failed: true,
    });
    expect(fromTool(bash({ exit: 0 }, "(no output)\n\nExit code: 0"), 0)).toMatchObject({ output: "", status: "exit 0" });
  });

  it("an imported agent's shell calls are lines too (Codex's argv, Claude Code's Bash); other tools are not", () => {
    const codex: ToolPart = { ...bash({ exit: 0 }, "ok"), tool: "shell", state: { status: "completed", input: { command: ["bash", "-lc", "rg -n health src"] }, output: "ok", title: "", metadata: { exit: 0 }, time: { start: 1, end: 2 } } };
    expect(fromTool(codex, 0)).toMatchObject({ command: "rg -n health src", status: "exit 0", failed: false });
    const claude: ToolPart = { ...bash({}, "x"), tool: "Bash", state: { status: "completed", input: { command: "npm test" }, output: "x", title: "", metadata: {}, time: { start: 1, end: 2 } } };
    expect(fromTool(claude, 0)).toMatchObject({ command: "npm test" });
    expect(fromTool({ ...bash({}, "x"), tool: "read", state: { status: "completed", input: { filePath: "a.ts" }, output: "", title: "", metadata: {}, time: { start: 1, end: 2 } } }, 0)).toBeUndefined();
  });

  it("a model command's cut output offers the file its tool saved", () => {
    const saved = "1\n2\n\n…3 lines truncated…\n\nThe full output was saved to /workspace/.tabcode/tool-output/tool_1.txt. Use grep to search it, or read with offset/limit to view parts of it.";
    expect(fromTool(bash({ exit: 0, output: "1\n2\n3\n4\n5" }, saved), 0)).toMatchObject({ output: "1\n2\n3\n4\n5", savedPath: "/workspace/.tabcode/tool-output/tool_1.txt" });
  });

  it("your commands: stopped and cut short by a reload are no failures; a timeout and a refusal are", () => {
    const e = { id: "cmd_1", command: "sleep 30", start: 1, output: "" };
    expect(fromEntry({ ...e, status: "stopped" })).toMatchObject({ status: "stopped", failed: false });
    expect(fromEntry({ ...e, status: "stopped", message: "stopped by a reload" })).toMatchObject({ status: "stopped by a reload", failed: false });
    expect(fromEntry({ ...e, status: "timed-out", exitCode: 124 })).toMatchObject({ status: "timed out", failed: true });
    expect(fromEntry({ ...e, status: "refused", message: "Not run: you rejected it." })).toMatchObject({ status: "Not run: you rejected it.", failed: true });
    expect(fromEntry({ ...e, status: "done", exitCode: 1 })).toMatchObject({ status: "exit 1", failed: true });
  });

  it("a cut output reads start, what was left out, end; a command is named by its first line", () => {
    expect(shownText({ head: "1\n2", omitted: { lines: 3, chars: 6 }, output: "6\n7" })).toBe("1\n2\n… 3 lines not shown …\n6\n7");
    expect(shownText({ output: "ok" })).toBe("ok");
    expect(commandName("seq 1 5000")).toBe("seq 1 5000");
    expect(commandName("for w in a b; do\n  echo $w\ndone")).toBe("for w in a b; do …");
    expect(commandName("x".repeat(60))).toBe(`${"x".repeat(39)}…`);
  });
});
