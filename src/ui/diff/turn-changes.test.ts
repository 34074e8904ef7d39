import { describe, expect, it } from "vitest";
import { History, text } from "../../core/compaction/test-fixtures";
import type { MessageWithParts, Part } from "../../core/schema";
import { fileDiff } from "../../core/tools/workspace";
import { diffFromPatches } from "./diff-rows";
import { changesOf, recordedEdits, stepsOf } from "./turn-changes";

function withParts(m: MessageWithParts, extra: Record<string, unknown>[]): void {
  for (const e of extra) m.parts.push({ id: `prt_${m.parts.length}${m.info.id}`, sessionID: m.info.sessionID, messageID: m.info.id, ...e } as Part);
}

describe("changesOf", () => {
  it("one step, or the whole turn from the first snapshot before to the last one after", () => {
    const h = new History();
    h.user(text("fix it"));
    const s1 = h.assistant([text("step 1")]);
    withParts(s1, [
      { type: "patch", hash: "h0", files: ["a.ts", "b.ts"] },
      { type: "step-finish", reason: "tool-calls", snapshot: "h1", cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } },
    ]);
    const s2 = h.assistant([text("step 2")]);
    withParts(s2, [{ type: "text", text: "no changes" }]);
    const s3 = h.assistant([text("step 3")]);
    withParts(s3, [
      { type: "patch", hash: "h1", files: ["b.ts", "c.ts"] },
      { type: "snapshot", snapshot: "h2" },
    ]);
    h.user(text("next"));
    const other = h.assistant([text("other turn")]);
    withParts(other, [{ type: "patch", hash: "h2", files: ["z.ts"] }]);

    expect(changesOf(h.msgs, s3.info.id, "step")).toEqual({ from: "h1", to: "h2", files: ["b.ts", "c.ts"] });
    expect(changesOf(h.msgs, s1.info.id, "turn")).toEqual({ from: "h0", to: "h2", files: ["a.ts", "b.ts", "c.ts"] });
    // A step without an "after" snapshot (cut short) compares with the current files.
    expect(changesOf(h.msgs, other.info.id, "turn")).toEqual({ from: "h2", to: undefined, files: ["z.ts"] });
    expect(changesOf(h.msgs, s2.info.id, "step")).toBeUndefined();
  });
});

/** A completed edit/write call as the tools store it: an absolute path and a unified patch. */
function edited(tool: string, filePath: string, diff: string): Record<string, unknown> {
  return { type: "tool", callID: `c${filePath}${diff.length}`, tool, state: { status: "completed", input: { filePath }, output: "ok", title: filePath, metadata: { filePath, diff }, time: { start: 1, end: 2 } } };
}

describe("recordedEdits", () => {
  it("finds a file's patches in a turn's steps, oldest first, by workspace-relative name", () => {
    const h = new History();
    h.user(text("fix it"));
    const s1 = h.assistant([text("step 1")]);
    const first = fileDiff("src/sum.ts", "a\n", "b\n").diff;
    withParts(s1, [edited("write", "/workspace/src/sum.ts", first), edited("edit", "/workspace/other/sum.ts", fileDiff("other/sum.ts", "x\n", "y\n").diff)]);
    const s2 = h.assistant([text("step 2")]);
    const second = fileDiff("src/sum.ts", "b\n", "b\nc\n").diff;
    // A call that failed recorded no change; a bash call none the tool can show.
    withParts(s2, [
      edited("edit", "src/sum.ts", second),
      { type: "tool", callID: "bad", tool: "edit", state: { status: "error", input: { filePath: "/workspace/src/sum.ts" }, error: "no match", time: { start: 1, end: 2 } } },
    ]);
    h.user(text("next"));
    const later = h.assistant([text("other turn")]);
    withParts(later, [edited("edit", "/workspace/src/sum.ts", fileDiff("src/sum.ts", "b\nc\n", "d\n").diff)]);

    const turn = stepsOf(h.msgs, s2.info.id, "turn");
    expect(turn.map((m) => m.info.id)).toEqual([s1.info.id, s2.info.id]);
    expect(recordedEdits(turn, "src/sum.ts")).toEqual([first, second]);
    expect(recordedEdits(stepsOf(h.msgs, s1.info.id, "step"), "src/sum.ts")).toEqual([first]);
    // "sum.ts" is not "src/sum.ts", nor is "other/sum.ts": the patch names the file relative to the workspace.
    expect(recordedEdits(turn, "sum.ts")).toEqual([]);
    expect(recordedEdits(turn, "other/sum.ts")).toHaveLength(1);
    expect(recordedEdits(turn, "README.md")).toEqual([]);

    // A patch that names no relative file (another tool's export): its absolute path, against the root when known.
    const foreign = "--- /home/p/src/sum.ts\n+++ /home/p/src/sum.ts\n@@ -1,1 +1,1 @@\n-a\n+z\n";
    const imported = h.assistant([text("imported")]);
    withParts(imported, [edited("edit", "/home/p/src/sum.ts", foreign)]);
    expect(recordedEdits([imported], "src/sum.ts", "/home/p")).toEqual([foreign]);
    expect(recordedEdits([imported], "sum.ts", "/home/p")).toEqual([]);
    expect(recordedEdits([imported], "src/sum.ts")).toEqual([foreign]);
    // Run on another machine (OpenCode's project path), read in this sandbox: by the path's ending.
    expect(recordedEdits([imported], "src/sum.ts", "/workspace")).toEqual([foreign]);
    expect(recordedEdits([imported], "/home/p/src/sum.ts", "/workspace")).toEqual([foreign]);

    const d = diffFromPatches(recordedEdits(turn, "src/sum.ts"));
    expect(d.hunks).toHaveLength(2);
    expect(d).toMatchObject({ additions: 2, deletions: 1 });
    expect(d.hunks.flatMap((x) => x.rows.map((r) => `${r.kind} ${r.text}`))).toEqual(["del a", "add b", "context b", "add c"]);
  });
});
