import { describe, expect, it } from "vitest";
import type { MessageWithParts } from "../schema";
import { activePath, nextPrev, ROOT, siblings } from "./branches";

let n = 0;
const id = () => `msg_${(++n).toString(16).padStart(15, "0")}aaaaaaaaaaa`;
const S = "ses_000000000000000aaaaaaaaaaa";
function user(text: string, prev?: string): MessageWithParts {
  const mid = id();
  return { info: { id: mid, sessionID: S, role: "user", time: { created: n }, agent: "build", model: { providerID: "p", modelID: "m" }, ...(prev ? { prev } : {}) }, parts: [{ id: `prt_${mid.slice(4)}`, sessionID: S, messageID: mid, type: "text", text }] };
}
function answer(to: MessageWithParts): MessageWithParts {
  return { info: { id: id(), sessionID: S, role: "assistant", parentID: to.info.id, time: { created: n }, modelID: "m", providerID: "p", agent: "build", cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }, finish: "stop" }, parts: [] };
}
const ids = (msgs: MessageWithParts[]) => msgs.map((m) => m.info.id);

describe("branches", () => {
  it("linear history (no prev) is its own path", () => {
    const u1 = user("a");
    const a1 = answer(u1);
    const u2 = user("b");
    const all = [u1, a1, u2, answer(u2)];
    expect(activePath(all, undefined)).toBe(all);
    expect(nextPrev(all)).toBe(u2.info.id);
  });

  it("an edited message is a sibling branch; the newest is shown unless another is selected", () => {
    const u1 = user("first", ROOT);
    const a1 = answer(u1);
    const u2 = user("second", u1.info.id);
    const a2 = answer(u2);
    const u3 = user("third", u2.info.id);
    const a3 = answer(u3);
    const e2 = user("second, edited", u1.info.id);
    const b2 = answer(e2);
    const all = [u1, a1, u2, a2, u3, a3, e2, b2];
    expect(ids(activePath(all, undefined))).toEqual(ids([u1, a1, e2, b2]));
    expect(ids(activePath(all, { [u1.info.id]: u2.info.id }))).toEqual(ids([u1, a1, u2, a2, u3, a3]));
    expect(siblings(all, e2.info.id)).toEqual({ key: u1.info.id, ids: [u2.info.id, e2.info.id], index: 1 });
    // Continuing the old branch later keeps each branch's own continuation.
    const u4 = user("fourth on the old branch", u3.info.id);
    const withMore = [...all, u4, answer(u4)];
    expect(ids(activePath(withMore, { [u1.info.id]: u2.info.id })).slice(-2)).toEqual(ids([u4, withMore[9] as MessageWithParts]));
    expect(ids(activePath(withMore, undefined))).toEqual(ids([u1, a1, e2, b2]));
  });

  it("messages without prev made during a branch (compaction, replay) follow the message before them", () => {
    const u1 = user("first", ROOT);
    const a1 = answer(u1);
    const e1 = user("first, edited", ROOT);
    const b1 = answer(e1);
    const compaction = user("(compaction)");
    const all = [u1, a1, e1, b1, compaction, answer(compaction)];
    expect(ids(activePath(all, undefined)).slice(0, 3)).toEqual(ids([e1, b1, compaction]));
  });
});
