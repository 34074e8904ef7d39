import { describe, expect, it } from "vitest";
import { userPath } from "./user-path";

const ok = (input: string) => userPath("/workspace", input);
const error = (input: string) => {
  const r = userPath("/workspace", input);
  return r.ok ? `accepted as ${r.rel}` : r.error;
};

describe("userPath (a path typed in the Files panel)", () => {
  it("takes a relative path, with or without ./, extra slashes and surrounding spaces", () => {
    expect(ok("src/util.ts")).toEqual({ ok: true, rel: "src/util.ts", folder: false });
    expect(ok("  ./src//util.ts ")).toEqual({ ok: true, rel: "src/util.ts", folder: false });
    expect(ok("src\\lib\\a.ts")).toEqual({ ok: true, rel: "src/lib/a.ts", folder: false });
    expect(ok(".skills/review/SKILL.md")).toEqual({ ok: true, rel: ".skills/review/SKILL.md", folder: false });
  });

  it("a trailing slash names a folder", () => {
    expect(ok("src/components/")).toEqual({ ok: true, rel: "src/components", folder: true });
  });

  it("an absolute path inside the workspace is taken relative to it; anything else absolute is outside", () => {
    expect(ok("/workspace/src/a.ts")).toEqual({ ok: true, rel: "src/a.ts", folder: false });
    expect(error("/etc/passwd")).toBe("“/etc/passwd” is outside the workspace (/workspace). Paths start at the workspace folder, for example src/util.ts.");
    expect(error("/workspace-other/a.ts")).toContain("is outside the workspace");
    expect(error("C:\\Users\\me\\a.ts")).toContain("is outside the workspace");
    expect(userPath("/home/projects/x", "/workspace/a.ts")).toEqual({ ok: false, error: expect.stringContaining("outside the workspace (/home/projects/x)") });
    expect(error("/workspace")).toBe("That is the workspace folder itself. Add a name, for example src/util.ts.");
  });

  it("refuses .. anywhere, even where it would stay inside", () => {
    expect(error("../a.ts")).toBe("“..” (the folder above) cannot be used: the path must stay inside the workspace.");
    expect(error("src/../a.ts")).toContain("“..”");
    expect(error("/workspace/../etc/x")).toContain("“..”");
  });

  it("refuses empty paths, ~, control characters, padded names and over-long names, in words", () => {
    expect(error("")).toBe("Type a path, for example src/util.ts.");
    expect(error("   ")).toBe("Type a path, for example src/util.ts.");
    expect(error("./")).toContain("the workspace folder itself");
    expect(error("~/a.ts")).toContain("“~” (a home folder)");
    expect(error("a\nb.ts")).toContain("control character");
    expect(error("a\0b")).toContain("control character");
    expect(error("src /a.ts")).toBe("The name “src ” starts or ends with a space. Remove the space (such names are easy to mistype later).");
    expect(error(`${"x".repeat(256)}.ts`)).toContain("longer than 255 bytes");
    expect(ok(`${"é".repeat(126)}.ts`).ok).toBe(true);
    expect(error(`${"é".repeat(128)}`)).toContain("longer than 255 bytes");
  });

  it("refuses the folders Files hides: .git, node_modules, .tabcode, at any depth", () => {
    expect(error(".git/config")).toBe("“.git” is git's own folder: Files does not create, move or delete anything in it.");
    expect(error("web/node_modules/x.js")).toContain("“node_modules” holds installed packages");
    expect(error(".tabcode/plans/p.md")).toContain("“.tabcode” holds tabcode's own files");
    expect(error("node_modules/")).toContain("“node_modules”");
    // Only the exact names: look-alikes are ordinary files.
    expect(ok(".gitignore").ok).toBe(true);
    expect(ok("constructor/a.ts").ok).toBe(true);
  });
});
