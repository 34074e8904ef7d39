import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ToolPart } from "../../../core/schema";
import { ToolPartView, shownOutput } from "./tool-part";

const ids = { id: "prt_1", sessionID: "ses_1", messageID: "msg_1", callID: "call_1" };
const time = { start: 1_000, end: 2_500 };
const bash = (metadata: Record<string, unknown>, output = "tick\n\nExit code: 0"): ToolPart => ({
  ...ids,
  type: "tool",
  tool: "bash",
  state: { status: "completed", input: { command: "sleep 60", description: "wait" }, output, title: "wait", metadata, time },
});
const html = (part: ToolPart) => renderToStaticMarkup(<ToolPartView part={part} />);

describe("a tool card's status", () => {
  it("a command stopped by the user reads 'stopped', not as a failure with the killed shell's exit code", () => {
    const out = html(bash({ exit: 124, aborted: true }));
    expect(out).toContain('aria-label="Tool bash: stopped"');
    expect(out).not.toContain("exit 124");
    expect(out).not.toContain("tool-failed");
  });

  it("a timeout is said as one; a real non-zero exit as its code", () => {
    expect(html(bash({ exit: 124, timedOut: true }))).toContain('aria-label="Tool bash: timed out"');
    const failed = html(bash({ exit: 2 }));
    expect(failed).toContain('aria-label="Tool bash: finished with exit code 2"');
    expect(failed).toContain("tool-failed");
  });

  it("a call stopped while it was still being written says it never ran, with what had streamed of it", () => {
    const part: ToolPart = {
      ...ids,
      type: "tool",
      tool: "write",
      state: { status: "error", input: {}, error: "Tool execution aborted", metadata: { notStarted: true, raw: '{"filePath":"notes.md","content":"# Not' , interrupted: true }, time: { start: 1, end: 1 } },
    };
    const out = html(part);
    expect(out).toContain('aria-label="Tool write: stopped before it ran"');
    expect(out).toContain("notes.md");
    expect(out).toContain("…(not finished)");
  });
});

describe("a tool's output as shown", () => {
  it("keeps the shell tool's notes for the model, without their tags", () => {
    expect(shownOutput("tick\n\n<bash_metadata>\nThe user aborted the command\n</bash_metadata>\n\nExit code: 124")).toBe("tick\n\nThe user aborted the command\n\nExit code: 124");
  });
});
