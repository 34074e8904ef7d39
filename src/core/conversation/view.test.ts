import { describe, expect, it } from "vitest";
import { ascendingId } from "../ids";
import { emptyTokens, type MessageWithParts, type Part } from "../schema";
import { ROOT } from "./branches";
import { conversationView, isTurnDone, latest, snapshotAt } from "./view";

const S = "ses_000000000000000aaaaaaaaaaa";
type PartInit = Record<string, unknown> & { type: Part["type"] };

function parts(messageID: string, list: PartInit[]): Part[] {
  return list.map((p) => ({ id: ascendingId("prt"), sessionID: S, messageID, ...p }) as Part);
}
function user(text: string, prev?: string, extra: PartInit[] = []): MessageWithParts {
  const id = ascendingId("msg");
  return {
    info: { id, sessionID: S, role: "user", time: { created: 1 }, agent: "build", model: { providerID: "p", modelID: "m" }, ...(prev ? { prev } : {}) },
    parts: parts(id, [{ type: "text", text }, ...extra]),
  };
}
function answer(to: MessageWithParts, list: PartInit[] = [{ type: "text", text: "ok" }], o: { summary?: boolean; finish?: string; error?: boolean } = {}): MessageWithParts {
  const id = ascendingId("msg");
  return {
    info: {
      id,
      sessionID: S,
      role: "assistant",
      parentID: to.info.id,
      time: { created: 1, completed: 2 },
      modelID: "m",
      providerID: "p",
      agent: o.summary ? "compaction" : "build",
      cost: 0,
      tokens: emptyTokens(),
      ...(o.error ? { error: { name: "MessageAbortedError", data: { message: "Stopped" } }, finish: "error" } : { finish: o.finish ?? "stop" }),
      ...(o.summary ? { summary: true } : {}),
    },
    parts: parts(id, list),
  };
}
const ids = (msgs: MessageWithParts[]) => msgs.map((m) => m.info.id);
const completedTool = (): PartInit => ({ type: "tool", callID: "c1", tool: "ls", state: { status: "completed", input: {}, output: "x", title: "ls", metadata: {}, time: { start: 1, end: 2 } } });

describe("conversationView", () => {
  it("shows the selected branch, hides what a revert hid, and sends from the last summary on", () => {
    const u1 = user("first", ROOT);
    const a1 = answer(u1);
    const u2 = user("second", u1.info.id);
    const a2 = answer(u2);
    // A compaction request and its summary on this branch.
    const c = user("", u2.info.id, [{ type: "compaction", auto: false }]);
    const sum = answer(c, [{ type: "text", text: "## Goal\nsummary" }], { summary: true });
    const u3 = user("third", c.info.id);
    const a3 = answer(u3);
    // An edit of "second": a sibling branch, which has no summary.
    const u2b = user("second, edited", u1.info.id);
    const a2b = answer(u2b);
    const all = [u1, a1, u2, a2, c, sum, u3, a3, u2b, a2b];

    // Default: the newest branch (the edit).
    const newest = conversationView({}, all);
    expect(ids(newest.path)).toEqual(ids([u1, a1, u2b, a2b]));
    expect(newest.sent).toEqual(newest.shown);
    expect(newest.done).toBe(true);
    expect(newest.next).toBe(u2b.info.id);

    // Select the first branch: the summary replaces what came before it in what is sent.
    const first = conversationView({ branches: { [u1.info.id]: u2.info.id } }, all);
    expect(ids(first.shown)).toEqual(ids([u1, a1, u2, a2, c, sum, u3, a3]));
    expect(ids(first.sent)).toEqual(ids([c, sum, u3, a3]));
    expect(first.reverted).toBe(0);

    // Revert u3 on that branch: hidden from shown and sent, still on the path.
    const reverted = conversationView({ branches: { [u1.info.id]: u2.info.id }, revert: { messageID: u3.info.id } }, all);
    expect(ids(reverted.path)).toEqual(ids(first.path));
    expect(ids(reverted.shown)).toEqual(ids([u1, a1, u2, a2, c, sum]));
    expect(ids(reverted.sent)).toEqual(ids([c, sum]));
    expect(reverted.reverted).toBe(2);
    expect(reverted.next).toBe(c.info.id);
    // Reverting the summary's request brings the full history back into what is sent.
    const beforeSummary = conversationView({ branches: { [u1.info.id]: u2.info.id }, revert: { messageID: c.info.id } }, all);
    expect(ids(beforeSummary.sent)).toEqual(ids([u1, a1, u2, a2]));
  });

  it("a failed summary is not a boundary: everything before it is still sent", () => {
    const u1 = user("a");
    const a1 = answer(u1);
    const c = user("", undefined, [{ type: "compaction", auto: true }]);
    const failed = answer(c, [{ type: "text", text: "partial" }], { summary: true, error: true });
    const v = conversationView(undefined, [u1, a1, c, failed]);
    expect(ids(v.sent)).toEqual(ids([u1, a1, c, failed]));
  });

  it("the turn is done only when the newest prompt has a finished answer with no unread tool result", () => {
    const u1 = user("a");
    const toolStop = answer(u1, [completedTool()], { finish: "stop" });
    // Some providers say `stop` after calling tools: the results are still unread.
    expect(conversationView(undefined, [u1, toolStop]).done).toBe(false);
    // And some say `tool-calls` after none: nothing is left to read.
    const textOnly = answer(u1, [{ type: "text", text: "done" }], { finish: "tool-calls" });
    expect(conversationView(undefined, [u1, toolStop, textOnly]).done).toBe(true);
    // A newer prompt is not answered yet.
    const u2 = user("b");
    expect(conversationView(undefined, [u1, toolStop, textOnly, u2]).done).toBe(false);
    // A stopped answer ends the turn.
    const stopped = answer(u2, [completedTool()], { error: true });
    expect(isTurnDone(latest([u1, u2, stopped]))).toBe(true);
    // No finish yet (still streaming): not done.
    const streaming = answer(u2, [{ type: "text", text: "…" }]);
    if (streaming.info.role === "assistant") delete streaming.info.finish;
    expect(isTurnDone(latest([u1, u2, streaming]))).toBe(false);
  });

  it("knows the workspace snapshot each branch stands at", () => {
    const u1 = user("a", ROOT);
    const a1 = answer(u1, [
      { type: "step-start", snapshot: "s0" },
      { type: "patch", hash: "s0", files: ["a.txt"] },
      { type: "step-finish", reason: "stop", snapshot: "s1", cost: 0, tokens: emptyTokens() },
    ]);
    const u2 = user("b", u1.info.id);
    const a2 = answer(u2, [{ type: "step-start", snapshot: "s1" }, { type: "patch", hash: "s1", files: ["b.txt"] }], { error: true });
    const u2b = user("b, edited", u1.info.id);
    const all = [u1, a1, u2, a2, u2b];
    // The edit stands where its branch point left the files.
    expect(conversationView({}, all).snapshot).toBe("s1");
    // The first branch changed files in a stopped step and recorded nothing after: unknown.
    expect(conversationView({ branches: { [u1.info.id]: u2.info.id } }, all).snapshot).toBeUndefined();
    // A marker written when the branch was left says where it stands.
    a2.parts.push(...parts(a2.info.id, [{ type: "snapshot", snapshot: "s2" }]));
    expect(conversationView({ branches: { [u1.info.id]: u2.info.id } }, all).snapshot).toBe("s2");
    // A step that changed nothing stands at its starting snapshot.
    expect(snapshotAt([answer(u1, [{ type: "step-start", snapshot: "s9" }])])).toBe("s9");
  });
});
