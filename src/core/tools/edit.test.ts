import { beforeEach, describe, expect, it } from "vitest";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { makeToolContext, type RecordingToolContext, runTool, runToolError } from "../../testing/workspace-tool-context";
import type { Sandbox } from "../ports/sandbox";
import { editTool } from "./edit";
import { grepTool } from "./grep";
import { readTool } from "./read";
import { writeTool } from "./write";

let sb: Sandbox;
let ctx: RecordingToolContext;
beforeEach(async () => {
  sb = await createLocalSandboxForTests({
    files: {
      "src/main.ts": "function main() {\n    const x = 1;\n    return x;\n}\n",
      "win.txt": "alpha\r\nbeta\r\ngamma\r\n",
      "dup.txt": "x = 1\ny = 2\nx = 1\n",
    },
  });
  ctx = makeToolContext({ sandbox: sb });
});

const read = (filePath: string) => runTool(readTool, { filePath }, ctx);
const text = (rel: string) => sb.fs.readText(`/workspace/${rel}`);

describe("edit", () => {
  it("requires a read first, then applies the edit with a diff", async () => {
    const before = await runToolError(editTool, { filePath: "src/main.ts", oldString: "return x;", newString: "return x + 1;" }, ctx);
    expect(before).toBe("You must read the file /workspace/src/main.ts before changing it. Use the read tool first.");
    await read("src/main.ts");
    const r = await runTool(editTool, { filePath: "src/main.ts", oldString: "return x;", newString: "return x + 1;" }, ctx);
    expect(r.output).toBe("Edit applied successfully.");
    expect(await text("src/main.ts")).toBe("function main() {\n    const x = 1;\n    return x + 1;\n}\n");
    expect(r.metadata).toMatchObject({ additions: 1, deletions: 1, filePath: "/workspace/src/main.ts" });
    const diff = String(r.metadata?.diff);
    expect(diff).toContain("--- src/main.ts\n+++ src/main.ts\n@@ -1,4 +1,4 @@");
    expect(diff).toContain("-    return x;\n+    return x + 1;");
    expect(ctx.asks.at(-1)).toEqual({
      permission: "edit",
      patterns: ["src/main.ts"],
      always: ["*"],
      metadata: { filePath: "/workspace/src/main.ts", diff },
    });
  });

  it("allows consecutive edits without re-reading, but not after an outside change", async () => {
    await read("src/main.ts");
    await runTool(editTool, { filePath: "src/main.ts", oldString: "const x = 1;", newString: "const x = 2;" }, ctx);
    await runTool(editTool, { filePath: "src/main.ts", oldString: "const x = 2;", newString: "const x = 3;" }, ctx);
    await sb.exec("echo '// touched' >> src/main.ts");
    const err = await runToolError(editTool, { filePath: "src/main.ts", oldString: "const x = 3;", newString: "const x = 4;" }, ctx);
    expect(err).toMatch(/^The file \/workspace\/src\/main.ts has been modified since it was last read .* Read it again before changing it\.$/);
    await read("src/main.ts");
    await runTool(editTool, { filePath: "src/main.ts", oldString: "const x = 3;", newString: "const x = 4;" }, ctx);
    expect(await text("src/main.ts")).toContain("const x = 4;\n");
  });

  it("refuses to edit a file that is not UTF-8 (its other bytes would become U+FFFD), and read says why", async () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6b, 0x65, 0x65, 0x70, 0x0a]); // "café\nkeep\n" in Latin-1
    await sb.fs.writeFile("/workspace/latin1.txt", latin1);
    const r = await read("latin1.txt");
    expect(r.output).toContain("caf\uFFFD");
    expect(r.output).toContain("This file is not UTF-8 text");
    const err = await runToolError(editTool, { filePath: "latin1.txt", oldString: "keep", newString: "kept" }, ctx);
    expect(err).toMatch(/^latin1\.txt was not edited\. This file is not UTF-8 text/);
    expect(await sb.fs.readFile("/workspace/latin1.txt")).toEqual(latin1);
    // A UTF-8 file reads without the note.
    expect((await read("win.txt")).output).not.toContain("not UTF-8");
  });

  it("a UTF-16 file (with its byte-order mark) is text: read shows it, grep finds in it, edit refuses it and says why", async () => {
    const le = new Uint8Array([0xff, 0xfe, ...[..."héllo\r\nworld\r\n"].flatMap((c) => [c.charCodeAt(0), 0])]);
    const be = new Uint8Array([0xfe, 0xff, ...[..."big end\n"].flatMap((c) => [0, c.charCodeAt(0)])]);
    await sb.fs.writeFile("/workspace/u16.txt", le);
    await sb.fs.writeFile("/workspace/u16be.txt", be);
    const r = await read("u16.txt");
    expect(r.output).toContain("1: héllo\n2: world");
    expect(r.output).toContain("This file is UTF-16 text");
    expect((await read("u16be.txt")).output).toContain("1: big end");
    const found = await runTool(grepTool, { pattern: "^world$" }, ctx);
    expect(found.output).toContain("u16.txt");
    const err = await runToolError(editTool, { filePath: "u16.txt", oldString: "world", newString: "earth" }, ctx);
    expect(err).toMatch(/^u16\.txt was not edited\. This file is UTF-16 text/);
    expect(await sb.fs.readFile("/workspace/u16.txt")).toEqual(le);
  });

  it("keeps CRLF line endings", async () => {
    await read("win.txt");
    await runTool(editTool, { filePath: "win.txt", oldString: "beta\ngamma", newString: "BETA\nGAMMA\ndelta" }, ctx);
    expect(await text("win.txt")).toBe("alpha\r\nBETA\r\nGAMMA\r\ndelta\r\n");
  });

  it("matches with flexible indentation", async () => {
    await read("src/main.ts");
    await runTool(editTool, { filePath: "src/main.ts", oldString: "const x = 1;\nreturn x;", newString: "    return 1;" }, ctx);
    expect(await text("src/main.ts")).toBe("function main() {\n    return 1;\n}\n");
  });

  it("reports multiple matches, and replaces all when asked", async () => {
    await read("dup.txt");
    const err = await runToolError(editTool, { filePath: "dup.txt", oldString: "x = 1", newString: "x = 9" }, ctx);
    expect(err).toMatch(/^Found 2 matches for oldString \(starting on lines 1, 3\)/);
    const r = await runTool(editTool, { filePath: "dup.txt", oldString: "x = 1", newString: "x = 9", replaceAll: true }, ctx);
    expect(await text("dup.txt")).toBe("x = 9\ny = 2\nx = 9\n");
    expect(r.metadata).toMatchObject({ additions: 2, deletions: 2 });
  });

  it("reports a missing oldString", async () => {
    await read("dup.txt");
    expect(await runToolError(editTool, { filePath: "dup.txt", oldString: "zzz", newString: "q" }, ctx)).toMatch(/^Could not find oldString in the file/);
  });

  it("refuses identical strings and missing files", async () => {
    expect(await runToolError(editTool, { filePath: "dup.txt", oldString: "a", newString: "a" }, ctx)).toBe(
      "No changes to apply: oldString and newString are identical.",
    );
    expect(await runToolError(editTool, { filePath: "nope.txt", oldString: "a", newString: "b" }, ctx)).toMatch(/^File not found: \/workspace\/nope.txt/);
  });

  it("creates a file from an empty oldString, but refuses an empty oldString on an existing file", async () => {
    const r = await runTool(editTool, { filePath: "new/file.txt", oldString: "", newString: "hi\n" }, ctx);
    expect(r.output).toBe("Created new/file.txt.");
    expect(await text("new/file.txt")).toBe("hi\n");
    expect(await runToolError(editTool, { filePath: "new/file.txt", oldString: "", newString: "again\n" }, ctx)).toMatch(
      /^new\/file.txt already exists: an empty oldString would replace the whole file/,
    );
    expect(await text("new/file.txt")).toBe("hi\n");
    await read("dup.txt");
    expect(await runToolError(editTool, { filePath: "dup.txt", oldString: "", newString: "x" }, ctx)).toMatch(/already exists/);
  });

  it("keeps a byte-order mark and CRLF line endings", async () => {
    await sb.fs.writeFile("/workspace/bom.txt", "\uFEFFone\r\ntwo\r\n");
    await read("bom.txt");
    await runTool(editTool, { filePath: "bom.txt", oldString: "two", newString: "2\nthree" }, ctx);
    const bytes = await sb.fs.readFile("/workspace/bom.txt");
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)).toBe("\uFEFFone\r\n2\r\nthree\r\n");
  });

  it("serialises parallel edits of one file: both land, or the second is told the file changed", async () => {
    await read("src/main.ts");
    const [a, b] = await Promise.all([
      editTool.run({ filePath: "src/main.ts", oldString: "const x = 1;", newString: "const x = 2;" }, ctx),
      editTool.run({ filePath: "src/main.ts", oldString: "return x;", newString: "return x * 2;" }, ctx),
    ]);
    expect(a.ok).toBe(true);
    const now = await text("src/main.ts");
    if (b.ok) expect(now).toBe("function main() {\n    const x = 2;\n    return x * 2;\n}\n");
    else {
      expect(b.error).toMatch(/modified since it was last read/);
      expect(now).toBe("function main() {\n    const x = 2;\n    return x;\n}\n");
    }
  });

  it("serialises a write racing an edit of the same file", async () => {
    await read("dup.txt");
    const [e, w] = await Promise.all([
      editTool.run({ filePath: "dup.txt", oldString: "y = 2", newString: "y = 3" }, ctx),
      writeTool.run({ filePath: "dup.txt", content: "replaced\n" }, ctx),
    ]);
    expect(e.ok).toBe(true);
    // The write ran second: it sees the edited file (the edit recorded it as read), so it overwrites it with its own content.
    expect(w.ok).toBe(true);
    expect(await text("dup.txt")).toBe("replaced\n");
    expect(String(w.ok && w.result.metadata?.diff)).toContain("-y = 3");
  });

  it("stops when the edit permission is refused", async () => {
    const denied = makeToolContext({ sandbox: sb, deny: ["edit"], state: ctx.state });
    await read("dup.txt");
    const r = await editTool.run({ filePath: "dup.txt", oldString: "y = 2", newString: "y = 3" }, denied);
    expect(r.ok).toBe(false);
    expect(await text("dup.txt")).toBe("x = 1\ny = 2\nx = 1\n");
  });

  it("refuses paths outside the workspace", async () => {
    expect(await runToolError(editTool, { filePath: "../x", oldString: "", newString: "a" }, ctx)).toMatch(/outside the workspace/);
    expect(await runToolError(editTool, { filePath: "/tmp/x", oldString: "", newString: "a" }, ctx)).toMatch(/outside the workspace/);
    expect(await runToolError(editTool, { filePath: "a\0b", oldString: "", newString: "a" }, ctx)).toMatch(/null byte/);
  });
});

describe("write", () => {
  it("creates new files without a read", async () => {
    const r = await runTool(writeTool, { filePath: "pkg/new.ts", content: "export const a = 1;\n" }, ctx);
    expect(r.output).toBe("Wrote pkg/new.ts (new file).");
    expect(await text("pkg/new.ts")).toBe("export const a = 1;\n");
    expect(r.metadata).toMatchObject({ exists: false, additions: 1, deletions: 0 });
    expect(ctx.asks[0]).toMatchObject({ permission: "edit", patterns: ["pkg/new.ts"] });
  });

  it("overwrites only files read and unchanged since", async () => {
    expect(await runToolError(writeTool, { filePath: "dup.txt", content: "x" }, ctx)).toMatch(/must read the file/);
    await read("dup.txt");
    await sb.fs.writeFile("/workspace/dup.txt", "changed behind the model's back\n");
    expect(await runToolError(writeTool, { filePath: "dup.txt", content: "x" }, ctx)).toMatch(/modified since it was last read/);
    await read("dup.txt");
    const r = await runTool(writeTool, { filePath: "dup.txt", content: "fresh\n" }, ctx);
    expect(r.output).toBe("Wrote dup.txt (overwrote the previous content).");
    expect(String(r.metadata?.diff)).toContain("-changed behind the model's back\n+fresh");
  });

  it("refuses to write a directory or outside the workspace", async () => {
    expect(await runToolError(writeTool, { filePath: "src", content: "x" }, ctx)).toMatch(/directory/);
    expect(await runToolError(writeTool, { filePath: "../../etc/x", content: "x" }, ctx)).toMatch(/outside the workspace/);
  });
});
