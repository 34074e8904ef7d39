import { beforeEach, describe, expect, it } from "vitest";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { makeToolContext, type RecordingToolContext, runTool, runToolError } from "../../testing/workspace-tool-context";
import type { Sandbox } from "../ports/sandbox";
import { GLOB_LIMIT, globTool } from "./glob";
import { GREP_LIMIT, grepTool } from "./grep";
import { LIST_LIMIT, listTool } from "./ls";

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

let sb: Sandbox;
let ctx: RecordingToolContext;
beforeEach(async () => {
  sb = await createLocalSandboxForTests();
  ctx = makeToolContext({ sandbox: sb });
});

/** Writes files one by one so their mtimes increase in order. */
async function writeInOrder(files: Array<[string, string]>): Promise<void> {
  for (const [rel, content] of files) {
    await sb.fs.writeFile(`/workspace/${rel}`, content);
    await pause(3);
  }
}

describe("list", () => {
  it("renders a tree, skipping dependency and build directories", async () => {
    await writeInOrder([
      ["src/index.ts", ""],
      ["src/util/str.ts", ""],
      ["README.md", ""],
      ["node_modules/x/index.js", ""],
      [".git/HEAD", ""],
      ["dist/out.js", ""],
      [".tabcode/tool-output/t.txt", ""],
      ["notes.log", ""],
    ]);
    const r = await runTool(listTool, {}, ctx);
    expect(r.output).toBe("/workspace/\n  src/\n    util/\n      str.ts\n    index.ts\n  README.md\n  notes.log");
    const ignored = await runTool(listTool, { ignore: ["*.log", "util"] }, ctx);
    expect(ignored.output).toBe("/workspace/\n  src/\n    index.ts\n  README.md");
    expect((await runTool(listTool, { path: "src" }, ctx)).output).toBe("/workspace/src/\n  util/\n    str.ts\n  index.ts");
  });

  it("stops at 100 entries with a note", async () => {
    for (let i = 0; i < 130; i++) await sb.fs.writeFile(`/workspace/many/f${String(i).padStart(3, "0")}.txt`, "");
    const r = await runTool(listTool, {}, ctx);
    expect(r.metadata).toMatchObject({ count: LIST_LIMIT, truncated: true });
    expect(r.output).toContain("(Showing the first 100 entries.");
  });

  it("refuses missing paths, files and paths outside", async () => {
    await sb.fs.writeFile("/workspace/f.txt", "");
    expect(await runToolError(listTool, { path: "nope" }, ctx)).toBe("Directory not found: /workspace/nope");
    expect(await runToolError(listTool, { path: "f.txt" }, ctx)).toBe("Not a directory: /workspace/f.txt");
    expect(await runToolError(listTool, { path: "../" }, ctx)).toMatch(/outside the workspace/);
  });
});

describe("glob", () => {
  it("matches relative paths, newest first", async () => {
    await writeInOrder([
      ["src/old.ts", ""],
      ["src/deep/mid.ts", ""],
      ["src/new.ts", ""],
      ["src/style.css", ""],
      ["node_modules/pkg/index.ts", ""],
    ]);
    const r = await runTool(globTool, { pattern: "**/*.ts" }, ctx);
    expect(r.output).toBe("/workspace/src/new.ts\n/workspace/src/deep/mid.ts\n/workspace/src/old.ts");
    const inSrc = await runTool(globTool, { pattern: "*.ts", path: "src" }, ctx);
    expect(inSrc.output).toBe("/workspace/src/new.ts\n/workspace/src/old.ts");
    const deps = await runTool(globTool, { pattern: "node_modules/**/*.ts" }, ctx);
    expect(deps.output).toBe("/workspace/node_modules/pkg/index.ts");
    expect((await runTool(globTool, { pattern: "**/*.rs" }, ctx)).output).toBe("No files found");
  });

  it("returns at most 100 files with a note", async () => {
    for (let i = 0; i < 120; i++) await sb.fs.writeFile(`/workspace/g/f${i}.md`, "");
    const r = await runTool(globTool, { pattern: "**/*.md" }, ctx);
    expect(r.output.split("\n").filter((l) => l.startsWith("/workspace/"))).toHaveLength(GLOB_LIMIT);
    expect(r.output).toContain("(Results are truncated: showing the first 100 of 120 files.");
    expect(r.metadata).toMatchObject({ count: 120, truncated: true });
  });

  it("refuses paths outside the workspace", async () => {
    expect(await runToolError(globTool, { pattern: "*", path: "/etc" }, ctx)).toMatch(/outside the workspace/);
  });
});

describe("grep", () => {
  it("groups matches by file, newest file first", async () => {
    await writeInOrder([
      ["a.ts", "const foo = 1;\nconst bar = 2;\nfoo();\n"],
      ["b.md", "no match here\n"],
      ["sub/c.ts", "export function foo() {}\n"],
    ]);
    const r = await runTool(grepTool, { pattern: "foo" }, ctx);
    expect(r.output).toBe(
      "Found 3 matches\n/workspace/sub/c.ts:\n  Line 1: export function foo() {}\n\n/workspace/a.ts:\n  Line 1: const foo = 1;\n  Line 3: foo();",
    );
    expect(r.metadata).toMatchObject({ matches: 3, truncated: false });
  });

  it("says what it could not search: files over 2 MB, and very long lines past their first 10,000 characters", async () => {
    await writeInOrder([
      ["long.txt", `${"x".repeat(300_000)}ENDMARK\nENDMARK at the start\n`],
      ["big.log", `${"y".repeat(2 * 1024 * 1024 + 10)}\nENDMARK\n`],
    ]);
    const r = await runTool(grepTool, { pattern: "ENDMARK" }, ctx);
    expect(r.output).toMatch(/^Found 1 match\n/);
    expect(r.output).toContain("Not searched: 1 file over 2 MB (big.log); use bash (grep) for it.");
    expect(r.output).toContain("Only the first 10,000 characters of 1 very long line were searched");
    const none = await runTool(grepTool, { pattern: "nowhere" }, ctx);
    expect(none.output).toMatch(/^No files found\n\n\(Not searched: 1 file over 2 MB/);
  });

  it("filters by include glob and path, and supports (?i)", async () => {
    await writeInOrder([
      ["a.ts", "Hello\n"],
      ["b.md", "hello\n"],
      ["sub/c.ts", "HELLO\n"],
    ]);
    const ts = await runTool(grepTool, { pattern: "(?i)hello", include: "*.ts" }, ctx);
    expect(ts.output).toBe("Found 2 matches\n/workspace/sub/c.ts:\n  Line 1: HELLO\n\n/workspace/a.ts:\n  Line 1: Hello");
    const sub = await runTool(grepTool, { pattern: "(?i)hello", path: "sub" }, ctx);
    expect(sub.output).toBe("Found 1 match\n/workspace/sub/c.ts:\n  Line 1: HELLO");
    expect((await runTool(grepTool, { pattern: "absent" }, ctx)).output).toBe("No files found");
  });

  it("caps at 100 matches and cuts long lines", async () => {
    await writeInOrder([
      ["many.txt", Array.from({ length: 150 }, (_, i) => `match ${i}`).join("\n")],
      ["wide.txt", `match ${"w".repeat(3000)}\n`],
    ]);
    const r = await runTool(grepTool, { pattern: "^match" }, ctx);
    expect(r.output.split("\n").filter((l) => l.startsWith("  Line "))).toHaveLength(GREP_LIMIT);
    expect(r.output).toContain("(Results are truncated: showing 100 of 151 matches.");
    expect(r.output).toContain(`  Line 1: match ${"w".repeat(1994)}...`);
  });

  it("skips binary files", async () => {
    await sb.fs.writeFile("/workspace/bin.dat", new Uint8Array([109, 97, 116, 99, 104, 0]));
    await sb.fs.writeFile("/workspace/t.txt", "match\n");
    expect((await runTool(grepTool, { pattern: "match" }, ctx)).output).toBe("Found 1 match\n/workspace/t.txt:\n  Line 1: match");
  });

  it("turns bad regexes into readable errors", async () => {
    expect(await runToolError(grepTool, { pattern: "foo(" }, ctx)).toMatch(/^Invalid regex "foo\(":/);
    expect(await runToolError(grepTool, { pattern: "(a+)+" }, ctx)).toMatch(/nests quantifiers/);
    expect(await runToolError(grepTool, { pattern: "x", path: "../" }, ctx)).toMatch(/outside the workspace/);
  });
});

describe(".env protection in searches", () => {
  const denyEnv = () => makeToolContext({ sandbox: sb, rules: [{ permission: "read", pattern: "*.env", action: "deny" }] });

  it("grep asks to read the files it would quote, so a denied .env is never shown", async () => {
    await writeInOrder([
      [".env", "API_TOKEN=secret-value\n"],
      ["src/config.ts", "const API_TOKEN = process.env.API_TOKEN;\n"],
    ]);
    const allowed = await runTool(grepTool, { pattern: "API_TOKEN" }, ctx);
    expect(ctx.asks.find((a) => a.permission === "read")?.patterns.sort()).toEqual([".env", "src/config.ts"]);
    expect(allowed.output).toContain("secret-value");
    const err = await runToolError(grepTool, { pattern: "API_TOKEN" }, denyEnv());
    expect(err).toMatch(/read ".env" is denied/);
    expect(err).not.toContain("secret-value");
  });

  it("glob asks to read the files it lists", async () => {
    await writeInOrder([
      [".env", "A=1\n"],
      ["config/prod.env", "B=2\n"],
      ["a.ts", ""],
    ]);
    await runTool(globTool, { pattern: "**/*" }, ctx);
    expect(ctx.asks.find((a) => a.permission === "read")?.patterns.sort()).toEqual([".env", "a.ts", "config/prod.env"]);
    expect(await runToolError(globTool, { pattern: "**/*.env" }, denyEnv())).toMatch(/is denied/);
  });
});
