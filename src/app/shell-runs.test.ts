import { describe, expect, it } from "vitest";
import { assertNoShellCommand, shellCommandRunning, shellCommandsDone, shellCommandStarted, stopShellCommand } from "./shell-runs";

describe("shell runs", () => {
  it("waits for the person's command in that session only, and for one started while waiting", async () => {
    await shellCommandsDone("ses_none");
    const first = shellCommandStarted("ses_a", () => {}, "make");
    let done = false;
    const wait = shellCommandsDone("ses_a").then(() => {
      done = true;
    });
    await shellCommandsDone("ses_b");
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    const second = shellCommandStarted("ses_a", () => {}, "make");
    first();
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    second();
    await wait;
    expect(done).toBe(true);
  });

  it("refuses a change to the files while a command runs, in that session only", () => {
    const end = shellCommandStarted("ses_c", () => {}, "make");
    expect(shellCommandRunning("ses_c")).toBe(true);
    expect(() => assertNoShellCommand("ses_c")).toThrow("a command of yours is still running in the terminal");
    expect(() => assertNoShellCommand("ses_d")).not.toThrow();
    end();
    expect(() => assertNoShellCommand("ses_c")).not.toThrow();
  });

  it("stops the command running in that session only, through the stop it was started with", () => {
    const stopped: string[] = [];
    const endE = shellCommandStarted("ses_e", () => stopped.push("e"), "sleep 9");
    const endF = shellCommandStarted("ses_f", () => stopped.push("f"), "sleep 9");
    stopShellCommand("ses_e");
    stopShellCommand("ses_none");
    expect(stopped).toEqual(["e"]);
    endE();
    stopShellCommand("ses_e");
    expect(stopped).toEqual(["e"]);
    expect(shellCommandRunning("ses_e")).toBe(false);
    expect(shellCommandRunning("ses_f")).toBe(true);
    endF();
  });
});
