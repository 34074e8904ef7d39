import { describe, expect, it } from "vitest";
import { alwaysScope, permissionQuestion } from "./permission-words";

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
});
