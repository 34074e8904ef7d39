import { beforeEach, describe, expect, it } from "vitest";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { makeToolContext, runTool, runToolError } from "../../testing/workspace-tool-context";
import type { Sandbox } from "../ports/sandbox";
import { looksBinary, readTool } from "./read";
import { READ_TIMES_KEY } from "./workspace";

let sb: Sandbox;
beforeEach(async () => {
  sb = await createLocalSandboxForTests({
    files: {
      "src/app.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n",
      "src/apple.ts": "x",
      "src/application.md": "y",
      "docs/readme.md": "hello",
      "pic.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
      "data.bin": new Uint8Array([1, 2, 3]),
      "blob.txt": new Uint8Array([104, 105, 0, 1]),
      "crlf.txt": "one\r\ntwo\r\n",
    },
  });
});

describe("read", () => {
  it("numbers lines inside path/type/content with an end-of-file footer", async () => {
    const r = await runTool(readTool, { filePath: "src/app.ts" }, makeToolContext({ sandbox: sb }));
    expect(r.output).toBe(
      "<path>/workspace/src/app.ts</path>\n<type>file</type>\n<content>\n1: const a = 1;\n2: const b = 2;\n3: const c = 3;\n\n(End of file - total 3 lines)\n</content>",
    );
    expect(r.title).toBe("src/app.ts");
  });

  it("pages with offset and limit", async () => {
    const r = await runTool(readTool, { filePath: "/workspace/src/app.ts", offset: 2, limit: 1 }, makeToolContext({ sandbox: sb }));
    expect(r.output).toContain("\n2: const b = 2;\n");
    expect(r.output).not.toContain("1: const a");
    expect(r.output).toContain("(Showing lines 2-2 of 3. Use offset=3 to continue.)");
  });

  it("defaults to 2000 lines", async () => {
    await sb.fs.writeFile("/workspace/long.txt", Array.from({ length: 2500 }, (_, i) => `l${i + 1}`).join("\n"));
    const r = await runTool(readTool, { filePath: "long.txt" }, makeToolContext({ sandbox: sb }));
    expect(r.output).toContain("\n2000: l2000\n");
    expect(r.output).not.toContain("2001: l2001");
    expect(r.output).toContain("(Showing lines 1-2000 of 2500. Use offset=2001 to continue.)");
  });

  it("cuts long lines and caps the output at 50 KB", async () => {
    await sb.fs.writeFile("/workspace/wide.txt", `${"x".repeat(2500)}\nshort\n`);
    const wide = await runTool(readTool, { filePath: "wide.txt" }, makeToolContext({ sandbox: sb }));
    expect(wide.output).toContain(`1: ${"x".repeat(2000)}... (line truncated to 2000 chars)\n2: short`);
    await sb.fs.writeFile("/workspace/big.txt", Array.from({ length: 1000 }, () => "y".repeat(100)).join("\n"));
    const big = await runTool(readTool, { filePath: "big.txt" }, makeToolContext({ sandbox: sb }));
    expect(big.output).toMatch(/\(Output capped at 50 KB\. Showing lines 1-(\d+)\. Use offset=(\d+) to continue\.\)/);
    const shown = Number(/Showing lines 1-(\d+)/.exec(big.output)?.[1]);
    expect(shown).toBeGreaterThan(400);
    expect(shown).toBeLessThan(1000);
    expect(big.metadata?.truncated).toBe(true);
  });

  it("rejects an offset past the end", async () => {
    const err = await runToolError(readTool, { filePath: "src/app.ts", offset: 10 }, makeToolContext({ sandbox: sb }));
    expect(err).toBe("Offset 10 is out of range for this file (3 lines)");
  });

  it("reads CRLF files as lines", async () => {
    const r = await runTool(readTool, { filePath: "crlf.txt" }, makeToolContext({ sandbox: sb }));
    expect(r.output).toContain("1: one\n2: two\n\n(End of file - total 2 lines)");
  });

  it("lists directories with trailing slashes", async () => {
    const r = await runTool(readTool, { filePath: "." }, makeToolContext({ sandbox: sb }));
    expect(r.output).toBe(
      "<path>/workspace</path>\n<type>directory</type>\n<entries>\nblob.txt\ncrlf.txt\ndata.bin\ndocs/\npic.png\nsrc/\n\n(6 entries)\n</entries>",
    );
    const page = await runTool(readTool, { filePath: ".", limit: 2, offset: 2 }, makeToolContext({ sandbox: sb }));
    expect(page.output).toContain("crlf.txt\ndata.bin\n\n(Showing 2 of 6 entries. Use offset=4 to continue.)");
  });

  it("returns images as data: URL attachments", async () => {
    const r = await runTool(readTool, { filePath: "pic.png" }, makeToolContext({ sandbox: sb }));
    expect(r.output).toBe("Image read successfully");
    expect(r.attachments).toEqual([{ mime: "image/png", filename: "pic.png", url: "data:image/png;base64,iVBORwABAg==" }]);
  });

  it("decides media by content, not by the name", async () => {
    const ctx = makeToolContext({ sandbox: sb });
    await sb.fs.writeFile("/workspace/not-really.png", "just text\n");
    expect((await runTool(readTool, { filePath: "not-really.png" }, ctx)).output).toContain("1: just text");
    await sb.fs.writeFile("/workspace/scan.dat", new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0x00]));
    const pdf = await runTool(readTool, { filePath: "scan.dat" }, ctx);
    expect(pdf.output).toBe("PDF read successfully");
    expect(pdf.attachments?.[0]?.mime).toBe("application/pdf");
  });

  it("refuses media over 20 MB with a clear message", async () => {
    const big = new Uint8Array(20 * 1024 * 1024 + 1);
    big.set([0x89, 0x50, 0x4e, 0x47]);
    await sb.fs.writeFile("/workspace/huge.png", big);
    expect(await runToolError(readTool, { filePath: "huge.png" }, makeToolContext({ sandbox: sb }))).toMatch(
      /^huge\.png is too large to attach \(20\.0 MB; the limit is 20 MB\)/,
    );
  });

  it("refuses binary files by extension and by content", async () => {
    expect(await runToolError(readTool, { filePath: "data.bin" }, makeToolContext({ sandbox: sb }))).toBe("Cannot read binary file: /workspace/data.bin");
    expect(await runToolError(readTool, { filePath: "blob.txt" }, makeToolContext({ sandbox: sb }))).toContain("Cannot read binary file");
    const odd = new Uint8Array(100).fill(7);
    expect(looksBinary("/x.txt", odd)).toBe(true);
    expect(looksBinary("/x.txt", new TextEncoder().encode("plain text\n\twith tabs"))).toBe(false);
  });

  it("suggests up to 3 similar names for a missing file", async () => {
    const err = await runToolError(readTool, { filePath: "src/app" }, makeToolContext({ sandbox: sb }));
    expect(err).toBe(
      "File not found: /workspace/src/app\n\nDid you mean one of these?\n/workspace/src/app.ts\n/workspace/src/apple.ts\n/workspace/src/application.md",
    );
    expect(await runToolError(readTool, { filePath: "nowhere/x.ts" }, makeToolContext({ sandbox: sb }))).toBe("File not found: /workspace/nowhere/x.ts");
  });

  it("records the read in the session state and asks the read permission", async () => {
    const ctx = makeToolContext({ sandbox: sb });
    await runTool(readTool, { filePath: "src/app.ts" }, ctx);
    const times = ctx.state.get(READ_TIMES_KEY);
    expect(times instanceof Map && times.has("/workspace/src/app.ts")).toBe(true);
    // Workspace-relative, like edit: a rule `src/*` matches both.
    expect(ctx.asks).toEqual([{ permission: "read", patterns: ["src/app.ts"], always: ["*"], metadata: {} }]);
  });

  it("refuses paths outside the workspace and null bytes", async () => {
    const ctx = makeToolContext({ sandbox: sb });
    expect(await runToolError(readTool, { filePath: "../etc/passwd" }, ctx)).toMatch(/outside the workspace/);
    expect(await runToolError(readTool, { filePath: "/etc/passwd" }, ctx)).toMatch(/outside the workspace/);
    expect(await runToolError(readTool, { filePath: "src/\0app.ts" }, ctx)).toMatch(/null byte/);
    expect(ctx.asks).toEqual([]);
  });

  it("fails clearly without a sandbox", async () => {
    expect(await runToolError(readTool, { filePath: "a" }, makeToolContext())).toMatch(/No workspace is available/);
  });
});
