import { describe, expect, it } from "vitest";
import { alwaysScope, nestedContext, permissionQuestion } from "./permission-words";

describe("the permission prompt's words", () => {
  it("names the permission only where it differs from the tool", () => {
    expect(permissionQuestion({ permission: "bash", title: "bash", patterns: ["ls"], always: ["ls *"] })).toBe("Allow bash?");
    expect(permissionQuestion({ permission: "edit", title: "write", patterns: ["a.ts"], always: ["*"] })).toBe("Allow write (edit)?");
    expect(permissionQuestion({ permission: "doom_loop", title: "Repeated tool call", patterns: ["read"], always: ["read"] })).toMatch(/^The model called read three times in a row/);
  });

  it("says what Always allow will allow, in words", () => {
    expect(alwaysScope({ permission: "bash", title: "bash", patterns: ["git status --short"], always: ["git status *"] })).toBe("Always allow covers “git status *” for the rest of this session.");
    expect(alwaysScope({ permission: "bash", title: "bash", patterns: ["ls && cat a"], always: ["ls *", "cat *", "wc *"] })).toBe("Always allow covers “ls *”, “cat *” and “wc *” for the rest of this session.");
    expect(alwaysScope({ permission: "edit", title: "write", patterns: ["a.ts"], always: ["*"] })).toBe("Always allow covers every edit request for the rest of this session.");
    expect(alwaysScope({ permission: "doom_loop", title: "Repeated tool call", patterns: ["read"], always: ["read"] })).toBe("Always allow lets “read” repeat itself for the rest of this session.");
    expect(alwaysScope({ permission: "bash", title: "bash", patterns: ["x"], always: [] })).toBeUndefined();
  });

  it("says which line runs a command asked about from inside it", () => {
    expect(nestedContext({ metadata: { command: "rm a", nested: true, within: "bash scripts/check.sh" } })).toBe(
      "A command run by “bash scripts/check.sh”: your rules ask before each command that runs, including those a script, xargs or find -exec starts.",
    );
    expect(nestedContext({ metadata: { command: "rm a", nested: true, within: "sh a.sh\nsh b.sh" } })).toMatch(/^A command run by “sh a.sh …”/);
    expect(nestedContext({ metadata: { command: "rm a", nested: true } })).toMatch(/^A command run by the command line the model ran/);
    expect(nestedContext({ metadata: { command: "rm a" } })).toBeUndefined();
  });
});
