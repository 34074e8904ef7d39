import { describe, expect, it } from "vitest";
import { emptyTokens } from "../schema";
import { importHistoryFiles } from "./detect";
import { type ChunkLimits, type HistoryChunk, historyChunks, type MappedPiece, mapDrop, type SourceFile, sortDrop } from "./stream";
import { fixtureFiles } from "./test-files";
import type { HistorySession, TextFile } from "./types";

const NOW = 1_800_000_000_000;

const asSource = (f: TextFile): SourceFile => ({ path: f.path, size: new TextEncoder().encode(f.text).length, text: async () => f.text });

/** A drop of every kind the reader sorts: four histories, a damaged file, an unknown one, an export and a zip. */
function mixedDrop(): TextFile[] {
  return [
    ...fixtureFiles("opencode-storage"),
    { path: "notes/tsconfig.json", text: '{ "compilerOptions": {} // a comment\n}' },
    ...fixtureFiles("codex"),
    { path: "cut/session.json", text: '{"sessionId": "x", "messages": [{"type": "user"' },
    ...fixtureFiles("claude-code"),
    { path: "mine.json", text: JSON.stringify({ format: "tabcode-session", version: 1 }) },
    ...fixtureFiles("gemini"),
    { path: "all.zip", text: "PK" },
  ];
}

/** A session's content without its generated ids, so two mappings of the same file compare equal. */
function shape(s: HistorySession): string {
  return JSON.stringify(s).replace(/\b(ses|msg|prt)_[A-Za-z0-9]+/g, "$1_ID");
}

async function streamed(files: readonly TextFile[], limits?: Partial<ChunkLimits>) {
  const plan = await sortDrop(files.map(asSource));
  const chunks = [...historyChunks(mapDrop(plan, NOW), { records: 600, sessions: 25, sliceMs: 1e9, now: () => 0, ...limits })];
  return { sorted: plan.sorted, chunks };
}

describe("the history stream", () => {
  it("gives the same sessions (parents first), issues and unknown files as mapping the whole drop at once", async () => {
    const files = mixedDrop();
    const whole = importHistoryFiles(
      files.filter((f) => !/\.zip$|mine\.json$/.test(f.path)),
      NOW,
    );
    const { sorted, chunks } = await streamed(files);
    expect(sorted.exports).toEqual([files.findIndex((f) => f.path === "mine.json"), files.length - 1]);
    expect(sorted.unknown).toEqual(whole.unknown);
    expect(sorted.unknown).toEqual(["notes/tsconfig.json"]);
    const issues = [...sorted.issues, ...chunks.flatMap((c) => c.issues)];
    expect(issues).toEqual(whole.issues);
    expect(issues.some((i) => i.at === "cut/session.json" && i.problem.startsWith("damaged"))).toBe(true);
    const parentsFirst = [...whole.sessions].sort((a, b) => Number(a.parentSourceID !== undefined) - Number(b.parentSourceID !== undefined));
    const sessions = chunks.flatMap((c) => c.sessions);
    expect(sessions.map(shape)).toEqual(parentsFirst.map(shape));
    expect(sessions.some((s) => s.parentSourceID !== undefined)).toBe(true);
    expect(chunks.at(-1)?.last).toBe(true);
    expect(chunks.filter((c) => c.last)).toHaveLength(1);
    expect(chunks.at(-1)?.read).toBe(sorted.bytes);
  });

  it("a Claude Code title from a summary line in a later file is found for a session mapped before it", async () => {
    const records = [
      { type: "user", sessionId: "s1", uuid: "u1", parentUuid: null, timestamp: "2025-11-04T10:00:00Z", message: { role: "user", content: "Fix the cache" } },
      { type: "assistant", sessionId: "s1", uuid: "a1", parentUuid: "u1", timestamp: "2025-11-04T10:00:01Z", message: { id: "m1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "Done." }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1 } } },
    ];
    const first: TextFile = { path: "a/s1.jsonl", text: records.map((r) => JSON.stringify(r)).join("\n") };
    const later: TextFile = { path: "b/s2.jsonl", text: [{ type: "summary", summary: "Named elsewhere", leafUuid: "a1" }, { ...records[0], sessionId: "s2", uuid: "v1" }].map((r) => JSON.stringify(r)).join("\n") };
    const whole = importHistoryFiles([first, later], NOW);
    const { chunks } = await streamed([first, later]);
    const titles = chunks.flatMap((c) => c.sessions).map((s) => s.info.title);
    expect(titles[0]).toBe("Named elsewhere");
    expect(titles).toEqual(whole.sessions.map((s) => s.info.title));
  });

  it("reports its way through a large transcript in steps, before the file's sessions are mapped", async () => {
    const line = (i: number) => JSON.stringify({ type: "user", sessionId: "big", uuid: `u${i}`, parentUuid: i ? `u${i - 1}` : null, message: { role: "user", content: `${i} ${"x".repeat(1000)}` } });
    const text = Array.from({ length: 3000 }, (_, i) => line(i)).join("\n");
    const plan = await sortDrop([asSource({ path: "big.jsonl", text })]);
    const pieces = [...mapDrop(plan, NOW)];
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(pieces.slice(0, -1).every((p) => p.sessions.length === 0 && p.bytes > 0)).toBe(true);
    expect(pieces.at(-1)?.sessions).toHaveLength(1);
    expect(pieces.reduce((n, p) => n + p.bytes, 0)).toBe(plan.sorted.bytes);
  });

  it("a file that cannot be read is an issue; the rest is read", async () => {
    const files: SourceFile[] = [
      {
        path: "gone.jsonl",
        size: 10,
        text: () => Promise.reject(new Error("NotReadableError")),
      },
      ...fixtureFiles("codex").map(asSource),
    ];
    const plan = await sortDrop(files);
    expect(plan.sorted.issues).toEqual([{ at: "gone.jsonl", problem: "could not be read (NotReadableError)" }]);
    expect([...historyChunks(mapDrop(plan, NOW))].flatMap((c) => c.sessions)).toHaveLength(1);
  });
});

describe("chunks of mapped sessions", () => {
  const session = (id: string, parts: number, parent?: string): HistorySession => ({
    info: { id: `ses_${id}`, title: id, directory: "/workspace", version: "t", time: { created: 1, updated: 1 }, tokens: emptyTokens(), cost: 0, source: { tool: "claude-code", id, updated: 1, importedAt: 1 } },
    // One message holding `parts - 1` parts: `parts` records in all.
    messages: [{ info: { id: `msg_${id}`, sessionID: `ses_${id}`, role: "user", time: { created: 1 }, agent: "build", model: { providerID: "p", modelID: "m" } }, parts: Array.from({ length: parts - 1 }, () => ({}) as never) }],
    ...(parent ? { parentSourceID: parent } : {}),
  });
  const piece = (sessions: HistorySession[], bytes = 100): MappedPiece => ({ sessions, issues: [], bytes });
  const ids = (chunks: HistoryChunk[]) => chunks.map((c) => c.sessions.map((s) => s.info.title));
  const limits: ChunkLimits = { records: 100, sessions: 3, sliceMs: 1e9, now: () => 0 };

  it("cuts by records and by sessions; a session larger than the budget is a chunk of its own", () => {
    const chunks = [...historyChunks([piece([session("a", 40), session("b", 40), session("c", 40)]), piece([session("huge", 500), session("d", 10), session("e", 10), session("f", 10), session("g", 10)])], limits)];
    expect(ids(chunks)).toEqual([["a", "b"], ["c"], ["huge"], ["d", "e", "f"], ["g"]]);
    expect(chunks.map((c) => c.last)).toEqual([false, false, false, false, true]);
    // `read` counts a piece once it is mapped, so the chunk cut by the next piece's first session counts both.
    expect(chunks.map((c) => c.read)).toEqual([100, 200, 200, 200, 200]);
  });

  it("holds sessions with a parent until every other session was handed over", () => {
    const chunks = [...historyChunks([piece([session("child", 5, "p2"), session("p1", 5)]), piece([session("p2", 5)])], { ...limits, sessions: 2 })];
    expect(ids(chunks)).toEqual([["p1", "p2"], ["child"]]);
  });

  it("hands over a chunk, even an empty one, when mapping went on for longer than a slice: the progress moves", () => {
    let t = 0;
    const slow = function* () {
      for (let i = 0; i < 3; i++) {
        t += 200;
        yield { sessions: [], issues: [{ at: `f${i}`, problem: "x" }], bytes: 10 };
      }
    };
    const chunks = [...historyChunks(slow(), { ...limits, sliceMs: 150, now: () => t })];
    expect(chunks.map((c) => [c.sessions.length, c.issues.length, c.read, c.last])).toEqual([
      [0, 1, 10, false],
      [0, 1, 20, false],
      [0, 1, 30, false],
      [0, 0, 30, true],
    ]);
  });
});
