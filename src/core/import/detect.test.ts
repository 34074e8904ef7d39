import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { importHistoryFiles, isSqlite, textKind } from "./detect";
import { fixtureFiles } from "./test-files";

describe("which importer reads a dropped file", () => {
  it("recognises each format by path and content", () => {
    const kinds = Object.fromEntries(["claude-code", "codex", "gemini", "opencode-storage"].flatMap((d) => fixtureFiles(d).map((f) => [f.path, textKind(f)])));
    for (const [path, kind] of Object.entries(kinds)) {
      const dir = path.split("/")[0];
      expect([path, kind]).toEqual([path, dir === "gemini" ? "gemini-cli" : dir]);
    }
    const ocExport = readFileSync(new URL("../../../e2e/fixtures/opencode-export.json", import.meta.url), "utf8");
    expect(textKind({ path: "x.json", text: ocExport })).toBe("export");
    expect(textKind({ path: "notes.jsonl", text: '{"hello":1}\n' })).toBe("unknown");
    // Cut short, or broken: damaged, and said so with where (not "not recognised").
    expect(textKind({ path: "session-2025.json", text: '{"sessionId": "x", "messages": [{"type": "user"' })).toBe("damaged");
    // Other broken JSON in a dropped folder (a tsconfig with comments) is not a damaged history.
    expect(textKind({ path: "tsconfig.json", text: '{ // comment\n "compilerOptions": {} }' })).toBe("unknown");
    const damaged = importHistoryFiles([{ path: "export.json", text: '{"info": {"id": "ses_1"}, "messages": [' }], 1);
    expect(damaged.unknown).toEqual([]);
    expect(damaged.issues).toEqual([{ at: "export.json", problem: expect.stringMatching(/^damaged, so skipped: it is not valid JSON: it has a syntax error(?: near character [\d,]+)? or breaks off before its end\.$/) }]);
  });

  it("imports a mixed folder in one go and names the files it did not recognise", () => {
    const files = [...fixtureFiles("claude-code"), ...fixtureFiles("codex"), ...fixtureFiles("gemini"), ...fixtureFiles("opencode-storage"), { path: "README.md", text: "hi" }];
    const r = importHistoryFiles(files, 1_800_000_000_000);
    expect(r.sessions.map((s) => s.info.source?.tool).sort()).toEqual(["claude-code", "claude-code", "codex", "gemini-cli", "gemini-cli", "gemini-cli", "opencode"]);
    expect(r.unknown).toEqual(["README.md"]);
  });

  it("knows a SQLite file by its header", () => {
    expect(isSqlite(new TextEncoder().encode("SQLite format 3\0rest"))).toBe(true);
    expect(isSqlite(new TextEncoder().encode("{}"))).toBe(false);
  });
});
