import { describe, expect, it } from "vitest";
import { AT_DRAFT, commandHistory, onFirstLine, onLastLine, type Recall, recall } from "./command-history";

describe("the command box's history (↑/↓)", () => {
  it("lists earlier commands newest first, a repeat in a row once", () => {
    expect(commandHistory(["ls", "pwd", "pwd", "ls"])).toEqual(["ls", "pwd", "ls"]);
    expect(commandHistory([])).toEqual([]);
  });

  it("↑ goes back one command at a time and stops at the oldest; ↓ comes forward and back to the draft", () => {
    const history = commandHistory(["echo one", "echo two", "echo three"]);
    let state: Recall = AT_DRAFT;
    let value = "ech";
    const press = (dir: "older" | "newer") => {
      const next = recall(history, state, value, dir);
      if (next) ({ state, value } = next);
      return next !== undefined;
    };
    expect(press("newer")).toBe(false);
    expect(press("older")).toBe(true);
    expect(value).toBe("echo three");
    press("older");
    press("older");
    expect(value).toBe("echo one");
    expect(press("older")).toBe(false);
    expect(value).toBe("echo one");
    press("newer");
    expect(value).toBe("echo two");
    press("newer");
    press("newer");
    expect(value).toBe("ech");
    expect(state).toEqual({ at: -1, draft: "ech" });
    expect(press("newer")).toBe(false);
  });

  it("recalls only from the first line (↑) or the last (↓) of a command of several lines, with no selection", () => {
    const v = "python3 -c '\nprint(1)\n'";
    expect(onFirstLine(v, 3, 3)).toBe(true);
    expect(onFirstLine(v, 14, 14)).toBe(false);
    expect(onLastLine(v, 14, 14)).toBe(false);
    expect(onLastLine(v, v.length, v.length)).toBe(true);
    expect(onFirstLine("ls -l", 0, 5)).toBe(false);
    expect(onLastLine("ls -l", 2, 2)).toBe(true);
  });
});
