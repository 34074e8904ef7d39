import { describe, expect, it } from "vitest";
import { memoryFS } from "../../testing/memory-fs";
import { discoverRules, GLOBAL_RULES_LABEL, pathToRoot } from "./discover";
import { loadedRules, nestedRulesFor, systemReminder } from "./nested";

describe("discoverRules", () => {
  it("collects every AGENTS.md from cwd up to the root, nearest first", async () => {
    const fs = memoryFS({
      "/ws/AGENTS.md": "root rules",
      "/ws/pkg/AGENTS.md": "pkg rules",
      "/ws/pkg/app/CLAUDE.md": "hidden by AGENTS.md",
      "/AGENTS.md": "outside the workspace",
    });
    const r = await discoverRules(fs, { cwd: "/ws/pkg/app", root: "/ws" });
    expect(r.files).toEqual(["/ws/pkg/AGENTS.md", "/ws/AGENTS.md"]);
    expect(r.sections).toEqual(["Instructions from: /ws/pkg/AGENTS.md\npkg rules", "Instructions from: /ws/AGENTS.md\nroot rules"]);
    expect(r.warnings).toEqual([]);
  });

  it("uses the first name that exists anywhere on the path, and only that name", async () => {
    const fs = memoryFS({ "/ws/CLAUDE.md": "claude", "/ws/sub/CLAUDE.md": "sub claude", "/ws/.cursorrules": "cursor" });
    expect((await discoverRules(fs, { cwd: "/ws/sub", root: "/ws" })).files).toEqual(["/ws/sub/CLAUDE.md", "/ws/CLAUDE.md"]);
    const onlyCursor = memoryFS({ "/ws/.cursorrules": "cursor" });
    expect((await discoverRules(onlyCursor, { cwd: "/ws", root: "/ws" })).sections).toEqual(["Instructions from: /ws/.cursorrules\ncursor"]);
  });

  it("adds the global rules from settings as their own last section", async () => {
    const fs = memoryFS({ "/ws/AGENTS.md": "project" });
    const r = await discoverRules(fs, { cwd: "/ws", root: "/ws", globalRules: "  Always answer in French.  " });
    expect(r.sections).toEqual(["Instructions from: /ws/AGENTS.md\nproject", `Instructions from: ${GLOBAL_RULES_LABEL}\nAlways answer in French.`]);
    expect((await discoverRules(undefined, { cwd: "/ws", root: "/ws", globalRules: "g" })).sections).toHaveLength(1);
    expect((await discoverRules(fs, { cwd: "/ws", root: "/ws", globalRules: "   " })).sections).toHaveLength(1);
  });

  it("skips empty files, and an empty AGENTS.md still hides CLAUDE.md", async () => {
    const fs = memoryFS({ "/ws/AGENTS.md": "  \n", "/ws/CLAUDE.md": "claude" });
    expect(await discoverRules(fs, { cwd: "/ws", root: "/ws" })).toEqual({ sections: [], files: [], warnings: [] });
  });

  it("warns about unreadable, binary, non-UTF-8 and huge files instead of crashing", async () => {
    const fs = memoryFS({
      "/ws/AGENTS.md": "root",
      "/ws/a/AGENTS.md": "x".repeat(100 * 1024 + 1),
      "/ws/a/b/AGENTS.md": new Uint8Array([65, 0, 66]),
      "/ws/a/b/c/AGENTS.md": new Uint8Array([0xff, 0xfe, 0x41]),
      "/ws/a/b/c/d/AGENTS.md": "locked",
    });
    fs.unreadable.add("/ws/a/b/c/d/AGENTS.md");
    const r = await discoverRules(fs, { cwd: "/ws/a/b/c/d", root: "/ws" });
    expect(r.files).toEqual(["/ws/AGENTS.md"]);
    expect(r.warnings).toHaveLength(4);
    expect(r.warnings.join("\n")).toMatch(/d\/AGENTS\.md: could not be read/);
    expect(r.warnings.join("\n")).toMatch(/c\/AGENTS\.md: skipped, not valid UTF-8/);
    expect(r.warnings.join("\n")).toMatch(/b\/AGENTS\.md: skipped, looks like a binary/);
    expect(r.warnings.join("\n")).toMatch(/a\/AGENTS\.md: skipped, larger than 100 KB/);
  });

  it("walks from cwd to root only", () => {
    expect(pathToRoot("/ws/a/b", "/ws")).toEqual(["/ws/a/b", "/ws/a", "/ws"]);
    expect(pathToRoot("/ws", "/ws")).toEqual(["/ws"]);
    expect(pathToRoot("/elsewhere", "/ws")).toEqual(["/ws"]);
  });
});

describe("nestedRulesFor", () => {
  const fs = memoryFS({
    "/ws/AGENTS.md": "root (already in the system prompt)",
    "/ws/pkg/AGENTS.md": "pkg rules",
    "/ws/pkg/CLAUDE.md": "not used: AGENTS.md wins in this directory",
    "/ws/pkg/src/CLAUDE.md": "src rules",
    "/ws/pkg/src/deep/file.ts": "code",
    "/ws/other/file.ts": "code",
  });

  it("returns rules between the file and the root (root excluded), nearest first, once per session", async () => {
    const loaded = new Set<string>();
    const first = await nestedRulesFor(fs, "/ws/pkg/src/deep/file.ts", "/ws", loaded);
    expect(first.files).toEqual([
      { path: "/ws/pkg/src/CLAUDE.md", content: "src rules" },
      { path: "/ws/pkg/AGENTS.md", content: "pkg rules" },
    ]);
    expect((await nestedRulesFor(fs, "/ws/pkg/src/deep/file.ts", "/ws", loaded)).files).toEqual([]);
    expect((await nestedRulesFor(fs, "/ws/other/file.ts", "/ws", loaded)).files).toEqual([]);
  });

  it("skips files already loaded and the file being read", async () => {
    const loaded = loadedRules(new Map(), ["/ws/pkg/AGENTS.md"]);
    expect((await nestedRulesFor(fs, "/ws/pkg/src/CLAUDE.md", "/ws", loaded)).files).toEqual([]);
    expect((await nestedRulesFor(fs, "/ws/pkg/src/deep/file.ts", "/ws", loaded)).files.map((f) => f.path)).toEqual(["/ws/pkg/src/CLAUDE.md"]);
  });

  it("ignores files outside the root", async () => {
    expect((await nestedRulesFor(fs, "/tmp/x.ts", "/ws", new Set())).files).toEqual([]);
  });

  it("keeps the loaded set in the tool state", () => {
    const state = new Map<string, unknown>();
    loadedRules(state).add("/a");
    expect(loadedRules(state).has("/a")).toBe(true);
  });

  it("wraps new rules in a system reminder", () => {
    expect(systemReminder([])).toBe("");
    expect(systemReminder([{ path: "/ws/p/AGENTS.md", content: "rules" }])).toBe(
      "<system-reminder>\nInstructions from: /ws/p/AGENTS.md\nrules\n</system-reminder>",
    );
  });
});
