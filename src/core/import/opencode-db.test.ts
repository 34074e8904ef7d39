import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openReaderDb } from "../../adapters/import/reader-vfs";
import { sqlSource } from "../../adapters/import/sql-source";
import { fileReader, nodeSqlite, sqlToFile } from "../../testing/sqlite-node";
import type { ToolPart } from "../schema";
import { detectSchema, listDbSessions, readDbSession, type SqlSource } from "./opencode-db";
import type { ImportIssue } from "./types";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8");
const NOW = 1_800_000_000_000;

async function open(sqlName: string): Promise<{ db: SqlSource; close: () => void }> {
  const sqlite3 = await nodeSqlite();
  const path = await sqlToFile(fixture(sqlName));
  const reader = fileReader(path);
  const handle = openReaderDb(sqlite3, reader);
  return {
    db: sqlSource(handle.db),
    close: () => {
      handle.close();
      reader.close();
    },
  };
}

describe("opencode.db 1.2 schema", () => {
  let h: { db: SqlSource; close: () => void };
  beforeAll(async () => {
    h = await open("opencode-1.2.sql");
  });
  afterAll(() => h.close());

  it("detects the 1.2 tables and lists sessions with project, dates and size", () => {
    const schema = detectSchema(h.db);
    expect(schema).toEqual({ ok: true, value: { v1: true, v2: false } });
    if (!schema.ok) return;
    const list = listDbSessions(h.db, schema.value);
    expect(list.map((s) => s.title)).toEqual(["Fix the flaky forecast test", "Find where the forecast is cached (@explore subagent)"]);
    expect(list[0]).toMatchObject({ project: "weather-app", created: 1768000100000, updated: 1768000400000, records: 6 + 15, table: "session" });
    expect(list[1]?.parentID).toBe("ses_4a1b2c3d4ffeAbCdEfGhIjKlMn");
  });

  it("maps messages, tools, reasoning, usage and the compaction summary; bad rows are reported by table and id", () => {
    const schema = detectSchema(h.db);
    if (!schema.ok) throw new Error(schema.error);
    const [main] = listDbSessions(h.db, schema.value);
    if (!main) throw new Error("no session");
    const issues: ImportIssue[] = [];
    const s = readDbSession(h.db, main, issues, NOW);
    if (!s) throw new Error("not imported");
    expect(s.info.source).toEqual({ tool: "opencode", version: "1.2.6", id: "ses_4a1b2c3d4ffeAbCdEfGhIjKlMn", updated: 1768000400000, importedAt: NOW });
    expect(s.info.title).toBe("Fix the flaky forecast test");
    expect(s.messages.map((m) => m.info.role)).toEqual(["user", "assistant", "assistant", "user", "assistant"]);
    const tools = s.messages.flatMap((m) => m.parts).filter((p): p is ToolPart => p.type === "tool");
    expect(tools.map((t) => [t.tool, t.state.status])).toEqual([
      ["bash", "completed"],
      ["task", "completed"],
      ["edit", "error"],
    ]);
    expect(tools[0]?.state).toMatchObject({ input: { command: "npm test -- forecast" }, output: expect.stringContaining("expected 21 to be 20") });
    expect(s.messages[1]?.parts.some((p) => p.type === "reasoning")).toBe(true);
    // Foreign snapshot hashes are not kept: the patch becomes a note listing the files.
    const parts = s.messages.flatMap((m) => m.parts);
    expect(parts.some((p) => p.type === "patch" || ((p.type === "step-start" || p.type === "step-finish") && p.snapshot))).toBe(false);
    expect(parts.find((p) => p.type === "text" && p.text.startsWith("Changed 1 file"))).toMatchObject({ synthetic: true });
    const summary = s.messages[4]?.info;
    expect(summary?.role === "assistant" && summary.summary).toBe(true);
    expect(s.messages[3]?.parts[0]?.type).toBe("compaction");
    const request = s.messages[3]?.parts[0];
    expect(request?.type === "compaction" && request.origin).toBe("opencode");
    // Totals from the step-finish parts (0.0321 + 0.0112) and the summary's own cost.
    expect(s.info.cost).toBeCloseTo(0.0453, 6);
    expect(s.info.tokens.cache.read).toBe(25800);
    expect(issues).toEqual([
      { at: "part row prt_b5e4d3c2b008BadJson00001", problem: expect.stringMatching(/JSON/i) },
      { at: "part row prt_b5e4d3c2c006Unknown00001", problem: expect.stringContaining("hologram") },
      { at: "message row msg_b5e4d3c2d005NoRole000001", problem: expect.stringContaining("role") },
    ]);
  });

  it("keeps the subagent session as a child of its caller", () => {
    const schema = detectSchema(h.db);
    if (!schema.ok) throw new Error(schema.error);
    const child = listDbSessions(h.db, schema.value)[1];
    if (!child) throw new Error("no child");
    const s = readDbSession(h.db, child, [], NOW);
    expect(s?.parentSourceID).toBe("ses_4a1b2c3d4ffeAbCdEfGhIjKlMn");
    expect(s?.messages[0]?.info).toMatchObject({ role: "user", agent: "explore" });
  });
});

describe("opencode.db 2.x schema", () => {
  let h: { db: SqlSource; close: () => void };
  beforeAll(async () => {
    h = await open("opencode-2x.sql");
  });
  afterAll(() => h.close());

  it("prefers session_v2 over the legacy copy with the same id and still lists 1.x-only sessions", () => {
    const schema = detectSchema(h.db);
    if (!schema.ok) throw new Error(schema.error);
    expect(schema.value).toEqual({ v1: true, v2: true });
    const list = listDbSessions(h.db, schema.value);
    expect(list.map((s) => [s.title, s.table])).toEqual([
      ["Untitled session", "session_v2"],
      ["Read the config file", "session_v2"],
      ["An older session", "session"],
    ]);
  });

  it("maps session_message rows: text, reasoning, tool with output, usage; idle rows skipped; bad data reported", () => {
    const schema = detectSchema(h.db);
    if (!schema.ok) throw new Error(schema.error);
    const s2 = listDbSessions(h.db, schema.value).find((s) => s.title === "Read the config file");
    if (!s2) throw new Error("missing");
    const issues: ImportIssue[] = [];
    const s = readDbSession(h.db, s2, issues, NOW);
    if (!s) throw new Error("not imported");
    expect(s.info.source?.version).toBe("2.0.3");
    expect(s.messages.map((m) => m.info.role)).toEqual(["user", "assistant", "assistant"]);
    const tool = s.messages[1]?.parts.find((p): p is ToolPart => p.type === "tool");
    expect(tool?.state).toMatchObject({ status: "completed", input: { path: "/home/dev/cli-tool/config.toml" }, output: "1: [server]\n2: port = 8080" });
    expect(s.info.tokens.cache.read).toBe(6800);
    expect(s.info.cost).toBeCloseTo(0.0042, 6);
    expect(JSON.stringify(s)).not.toContain("LEGACY COPY");
    expect(issues).toEqual([{ at: "session_message row msg_0870cbd3f001AaaBroken001", problem: expect.stringMatching(/JSON/i) }]);
  });

  it("refuses a SQLite file that is not OpenCode's, in words", async () => {
    const sqlite3 = await nodeSqlite();
    const path = await sqlToFile("CREATE TABLE notes (id integer primary key, body text);");
    const reader = fileReader(path);
    const handle = openReaderDb(sqlite3, reader);
    try {
      const r = detectSchema(sqlSource(handle.db));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toContain("not an OpenCode database");
    } finally {
      handle.close();
      reader.close();
    }
  });
});
