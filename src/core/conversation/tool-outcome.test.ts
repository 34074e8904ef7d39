import { describe, expect, it } from "vitest";
import type { ToolState } from "../schema";
import { toolOutcome } from "./tool-outcome";

const time = { start: 1, end: 2 };
const ran = (metadata: Record<string, unknown>): ToolState => ({ status: "completed", input: { command: "python3 calc.py" }, output: "", title: "", metadata, time });

describe("toolOutcome: one rule for the tool card and the exports", () => {
  it("a command that exited non-zero is a failure, though its state is 'completed'", () => {
    expect(toolOutcome(ran({ exit: 1 }))).toEqual({ label: "exit 1", tone: "failure", exit: 1, timedOut: false });
    expect(toolOutcome(ran({ exit: 0 }))).toEqual({ label: "done", tone: "ok", timedOut: false });
    expect(toolOutcome(ran({}))).toMatchObject({ label: "done", tone: "ok" });
  });

  it("a stopped command is neither success nor failure, and its killed shell's exit code is not shown", () => {
    expect(toolOutcome(ran({ exit: 130, aborted: true }))).toEqual({ label: "stopped", tone: "stopped", timedOut: false });
    expect(toolOutcome({ status: "error", input: {}, error: "Tool execution aborted", metadata: { interrupted: true }, time })).toMatchObject({ label: "stopped", tone: "stopped" });
    expect(toolOutcome({ status: "error", input: {}, error: "Tool execution aborted", metadata: { interrupted: true, notStarted: true }, time })).toMatchObject({ label: "stopped before it ran", tone: "stopped" });
  });

  it("a timeout is said as one, in the failure's colour", () => {
    expect(toolOutcome(ran({ exit: 124, timedOut: true }))).toEqual({ label: "timed out", tone: "failure", exit: 124, timedOut: true });
  });

  it("an error is 'failed'; a call not finished is busy", () => {
    expect(toolOutcome({ status: "error", input: {}, error: "File not found", time })).toMatchObject({ label: "failed", tone: "failure" });
    expect(toolOutcome({ status: "pending", input: {}, raw: "" })).toMatchObject({ label: "preparing", tone: "busy" });
    expect(toolOutcome({ status: "running", input: {}, time: { start: 1 } })).toMatchObject({ label: "running", tone: "busy" });
  });
});
