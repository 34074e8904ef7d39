import { describe, expect, it } from "vitest";
import { namedError } from "../errors";
import { file, History, reasoning, text, tool } from "./test-fixtures";
import { renderToolLog, serializeTranscript, splitSummary, TRANSCRIPT_TOOL_CHARS, toolLog } from "./transcript";

describe("serializeTranscript", () => {
  it("writes each message kind as a tagged paragraph", () => {
    const h = new History();
    h.user(text("Fix the bug"), file("image/png", "shot.png"), text("ignored", { ignored: true }));
    h.assistant([
      reasoning("thinking"),
      text("Looking."),
      tool("read", { filePath: "a.ts" }, "const a = 1;"),
      tool("bash", { command: "npm test" }, "old output", { compacted: 5 }),
      tool("grep", { pattern: "x" }, "no such dir", { status: "error" }),
      tool("read", { filePath: "p.png" }, "Image read", { attachments: [{ mime: "image/png", filename: "p.png", url: "data:," }] }),
    ]);
    h.assistant([text("never sent")], { error: namedError("APIError", { message: "x", isRetryable: false }) });
    expect(serializeTranscript(h.msgs)).toBe(
      [
        "[User]: Fix the bug",
        "[Attached image/png: shot.png]",
        "[Assistant reasoning]: thinking",
        "[Assistant]: Looking.",
        '[Assistant tool call]: read({"filePath":"a.ts"})',
        "[Tool result]: const a = 1;",
        '[Assistant tool call]: bash({"command":"npm test"})',
        "[Tool result]: [Old tool result content cleared]",
        '[Assistant tool call]: grep({"pattern":"x"})',
        "[Tool error]: no such dir",
        '[Assistant tool call]: read({"filePath":"p.png"})',
        "[Tool result]: Image read",
        "[Attached image/png: p.png]",
      ].join("\n\n"),
    );
  });

  it("cuts tool results to 2,000 characters", () => {
    const h = new History();
    h.assistant([tool("read", { filePath: "big" }, `${"a".repeat(TRANSCRIPT_TOOL_CHARS)}TAIL`)]);
    const out = serializeTranscript(h.msgs);
    expect(out).toContain(`[Tool result]: ${"a".repeat(2_000)}\n[truncated]`);
    expect(out).not.toContain("TAIL");
  });
});

describe("tool log", () => {
  it("collects file paths and commands from tool calls", () => {
    const h = new History();
    h.assistant([
      tool("read", { filePath: "src/a.ts" }, "x"),
      tool("edit", { filePath: "src/a.ts", oldString: "1", newString: "2" }, "ok"),
      tool("write", { filePath: "src/b.ts", content: "" }, "ok"),
      tool("glob", { pattern: "**/*.ts", path: "src" }, "src/a.ts"),
      tool("grep", { pattern: "TODO" }, "none"),
      tool("bash", { command: "npm test" }, "ok"),
      tool("bash", { command: "git status\ngit diff" }, "ok"),
      tool("bash", { command: "npm test" }, "ok"),
      tool("todowrite", { todos: [] }, "ok"),
      // Named absolute, or with a dot: the same files.
      tool("read", { filePath: "/workspace/src/./b.ts" }, "x"),
      tool("read", { filePath: "./src/a.ts" }, "x"),
      // Failed calls did nothing: not listed (a denied command, an edit of a missing file); one cut while it ran is.
      tool("edit", { filePath: "missing.ts", oldString: "1", newString: "2" }, "File not found", { status: "error" }),
      tool("bash", { command: "rm -rf /" }, "denied", { status: "error" }),
    ]);
    const log = toolLog(h.msgs);
    expect(renderToolLog(log)).toBe(
      [
        "## Relevant files",
        "- src/a.ts (read, edited)",
        "- src/b.ts (written, read)",
        "- src (searched)",
        "- . (searched)",
        "",
        "## Commands run",
        "- `git status ⏎ git diff`",
        "- `npm test`",
      ].join("\n"),
    );
  });

  it("names a previous summary's absolute paths as the workspace does, merged with the same files named relative", () => {
    const h = new History();
    h.assistant([tool("read", { filePath: "src/a.ts" }, "x")]);
    const previous = splitSummary("## Goal\nx\n\n## Relevant files\n- /workspace/src/a.ts (edited)\n- /etc/hosts (read)\n").log;
    expect([...toolLog(h.msgs, previous).files].map(([path, actions]) => [path, [...actions]])).toEqual([
      ["/etc/hosts", ["read"]],
      ["src/a.ts", ["edited", "read"]],
    ]);
  });

  it("lists the files a step's patch shows changed by a command, unless an edit or write already named them", () => {
    const h = new History();
    const patch = (files: string[]) => (ids: { id: string; sessionID: string; messageID: string }) => ({ ...ids, type: "patch" as const, hash: "h0", files });
    h.assistant([tool("read", { filePath: "/workspace/src/a.ts" }, "x"), tool("bash", { command: "sed -i s/1/2/ src/a.ts && touch new.txt" }, "ok"), patch(["src/a.ts", "new.txt", ".git/index", "node_modules/x/index.js", "__pycache__/a.pyc"])]);
    h.assistant([tool("edit", { filePath: "/workspace/src/b.ts", oldString: "1", newString: "2" }, "ok"), patch(["src/b.ts"])]);
    expect([...toolLog(h.msgs).files].map(([path, actions]) => [path, [...actions]])).toEqual([
      ["src/a.ts", ["read", "changed"]],
      ["new.txt", ["changed"]],
      ["src/b.ts", ["edited"]],
    ]);
    // Another working directory: a path outside it stays absolute.
    expect([...toolLog(h.msgs, undefined, "/home/me/").files.keys()]).toEqual(["/workspace/src/a.ts", "src/a.ts", "new.txt", "/workspace/src/b.ts", "src/b.ts"]);
  });

  it("renders (none) for empty lists and round-trips through splitSummary", () => {
    expect(renderToolLog({ files: new Map(), commands: [] })).toBe("## Relevant files\n(none)\n\n## Commands run\n(none)");
    const log = toolLog([]);
    log.files.set("a.ts", new Set(["read", "edited"]));
    log.commands.push("ls -la");
    const summary = `## Goal\nShip it\n\n${renderToolLog(log)}`;
    const split = splitSummary(summary);
    expect(split.body).toBe("## Goal\nShip it");
    expect([...split.log.files].map(([p, a]) => [p, [...a]])).toEqual([["a.ts", ["read", "edited"]]]);
    expect(split.log.commands).toEqual(["ls -la"]);
  });

  it("drops sections a model wrote under the code-built headings", () => {
    const split = splitSummary("## Goal\nG\n## Relevant Files\n- made/up.ts\n## Accomplished\nA");
    expect(split.body).toBe("## Goal\nG\n## Accomplished\nA");
  });
});
