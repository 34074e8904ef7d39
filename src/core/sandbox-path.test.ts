import { describe, expect, it } from "vitest";
import { basename, dirname, extname, isInside, joinPath, normalizePath, relativeTo, resolveInRoot } from "./sandbox-path";

describe("sandbox paths", () => {
  it("normalises", () => {
    expect(normalizePath("/a//b/./c/../d/")).toBe("/a/b/d");
    expect(normalizePath("/../..")).toBe("/");
    expect(joinPath("/w", "x", "../y")).toBe("/w/y");
    expect(dirname("/w/a/b.txt")).toBe("/w/a");
    expect(dirname("/w")).toBe("/");
    expect(basename("/w/a/b.txt")).toBe("b.txt");
    expect(extname("/w/a/B.PNG")).toBe(".png");
    expect(extname("/w/.env")).toBe("");
  });

  it("tests containment without prefix confusion", () => {
    expect(isInside("/workspace", "/workspace")).toBe(true);
    expect(isInside("/workspace", "/workspace/a")).toBe(true);
    expect(isInside("/workspace", "/workspace2/a")).toBe(false);
    expect(relativeTo("/workspace", "/workspace/a/b")).toBe("a/b");
    expect(relativeTo("/workspace", "/workspace")).toBe(".");
  });

  it("resolves relative and absolute paths inside the root", () => {
    expect(resolveInRoot("/workspace", "src/a.ts")).toEqual({ ok: true, abs: "/workspace/src/a.ts", rel: "src/a.ts" });
    expect(resolveInRoot("/workspace", "/workspace/x")).toEqual({ ok: true, abs: "/workspace/x", rel: "x" });
    expect(resolveInRoot("/workspace", "b.txt", "/workspace/sub")).toMatchObject({ abs: "/workspace/sub/b.txt" });
    expect(resolveInRoot("/workspace", "sub/../c")).toMatchObject({ abs: "/workspace/c" });
  });

  it("refuses escapes, outside absolutes and null bytes", () => {
    const up = resolveInRoot("/workspace", "../etc/passwd");
    expect(up.ok).toBe(false);
    if (!up.ok) expect(up.error).toMatch(/outside the workspace/);
    expect(resolveInRoot("/workspace", "/etc/passwd").ok).toBe(false);
    expect(resolveInRoot("/workspace", "a/../../x").ok).toBe(false);
    const nul = resolveInRoot("/workspace", "a\0b");
    expect(nul.ok).toBe(false);
    if (!nul.ok) expect(nul.error).toMatch(/null byte/);
    expect(resolveInRoot("/workspace", "  ").ok).toBe(false);
  });
});
