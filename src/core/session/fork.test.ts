import { describe, expect, it } from "vitest";
import { contentOf, dumpStore, SessionBuilder, sampleSession, storeWith } from "../export/test-helpers";
import type { MessageWithParts } from "../schema";
import { ForkSourceError, forkSession } from "./fork";

const NOW = Date.now();

/** Checks a copied history: ids fresh and ascending, parts re-parented, parents are earlier user messages. */
function expectValidCopy(msgs: MessageWithParts[], sessionID: string, oldIds: Set<string>): void {
  const ids = msgs.map((m) => m.info.id);
  expect([...ids].sort()).toEqual(ids);
  for (const [i, m] of msgs.entries()) {
    expect(oldIds.has(m.info.id)).toBe(false);
    expect(m.info.sessionID).toBe(sessionID);
    if (m.info.role === "assistant") {
      const parentID = m.info.parentID;
      const parent = msgs.findIndex((x) => x.info.id === parentID);
      expect(parent).toBeGreaterThanOrEqual(0);
      expect(parent).toBeLessThan(i);
      expect(msgs[parent]?.info.role).toBe("user");
    }
    for (const p of m.parts) {
      expect(oldIds.has(p.id)).toBe(false);
      expect([p.sessionID, p.messageID]).toEqual([sessionID, m.info.id]);
    }
  }
}

async function setup() {
  const s = sampleSession({ parentID: "ses_someparent", share: { url: "x" }, agent: "build" });
  const store = await storeWith(s);
  const oldIds = new Set(s.messages.flatMap((m) => [m.info.id, ...m.parts.map((p) => p.id)]));
  return { s, store, oldIds, id: (i: number) => s.messages[i]?.info.id ?? "" };
}

describe("forkSession", () => {
  it("from a user message (before): earlier messages copied with fresh ids, a root session, original untouched", async () => {
    const { s, store, oldIds, id } = await setup();
    const before = await dumpStore(store);
    const fork = (await forkSession(store, { sessionID: s.session.id, messageID: id(3), include: "before" }, NOW)).session;
    expect(fork).toMatchObject({
      title: "Fix the add() bug (fork #1)",
      directory: "/workspace",
      time: { created: NOW, updated: NOW },
      fork: { sessionID: s.session.id, messageID: id(3) },
      agent: "build",
      tokens: { input: 1300, output: 140, reasoning: 50, cache: { read: 200, write: 0 } },
      cost: 0.03,
    });
    expect(fork).not.toHaveProperty("parentID");
    expect(fork).not.toHaveProperty("share");
    expect(await store.getSession(fork.id)).toEqual(fork);
    const msgs = await store.messages(fork.id);
    expect(contentOf(msgs)).toEqual(contentOf(s.messages.slice(0, 3)));
    expectValidCopy(msgs, fork.id, oldIds);
    const originalNow = JSON.parse(await dumpStore(store)).filter((x: { s: { id: string } }) => x.s.id === s.session.id);
    expect(originalNow).toEqual(JSON.parse(before));
  });

  it("through a user message includes it", async () => {
    const { s, store, oldIds, id } = await setup();
    const fork = (await forkSession(store, { sessionID: s.session.id, messageID: id(3), include: "through" }, NOW)).session;
    const msgs = await store.messages(fork.id);
    expect(contentOf(msgs)).toEqual(contentOf(s.messages.slice(0, 4)));
    expectValidCopy(msgs, fork.id, oldIds);
  });

  it("through an assistant message keeps its user message: a valid history", async () => {
    const { s, store, oldIds, id } = await setup();
    const fork = (await forkSession(store, { sessionID: s.session.id, messageID: id(1), include: "through" }, NOW)).session;
    const msgs = await store.messages(fork.id);
    expect(msgs.map((m) => m.info.role)).toEqual(["user", "assistant"]);
    expectValidCopy(msgs, fork.id, oldIds);
    expect(msgs[1]?.info.role === "assistant" && msgs[1].info.parentID).toBe(msgs[0]?.info.id);
    expect(fork.cost).toBe(0.01);
  });

  it("before an assistant message ends with its user message", async () => {
    const { s, store, id } = await setup();
    const fork = (await forkSession(store, { sessionID: s.session.id, messageID: id(4), include: "before" }, NOW)).session;
    const msgs = await store.messages(fork.id);
    expect(msgs.map((m) => m.info.role)).toEqual(["user", "assistant", "assistant", "user"]);
  });

  it("leaves out messages hidden by a soft revert, and the revert state", async () => {
    const { s, store, id } = await setup();
    await store.updateSession(s.session.id, (x) => ({ ...x, revert: { messageID: id(3) } }));
    const fork = (await forkSession(store, { sessionID: s.session.id, messageID: id(4), include: "through" }, NOW)).session;
    expect((await store.messages(fork.id)).length).toBe(3);
    expect(fork).not.toHaveProperty("revert");
  });

  it("numbers forks, and a fork of a fork continues the count", async () => {
    const { s, store, id } = await setup();
    const f1 = (await forkSession(store, { sessionID: s.session.id, messageID: id(1), include: "through" }, NOW)).session;
    const f2 = (await forkSession(store, { sessionID: s.session.id, messageID: id(1), include: "through" }, NOW)).session;
    const f1msgs = await store.messages(f1.id);
    const f3 = (await forkSession(store, { sessionID: f1.id, messageID: f1msgs[1]?.info.id ?? "", include: "through" }, NOW)).session;
    expect([f1.title, f2.title, f3.title]).toEqual(["Fix the add() bug (fork #1)", "Fix the add() bug (fork #2)", "Fix the add() bug (fork #3)"]);
    expect(f3.fork).toEqual({ sessionID: f1.id, messageID: f1msgs[1]?.info.id });
  });

  it("remaps compaction tails and edit branches inside the copy", async () => {
    const { s, store, id } = await setup();
    const u2 = s.messages[3];
    if (u2?.info.role !== "user") throw new Error("fixture");
    await store.upsertMessage({ ...u2.info, prev: id(0) });
    await store.upsertPart({ id: "prt_zzzz", sessionID: s.session.id, messageID: id(3), type: "compaction", auto: true, tail_start_id: id(1) });
    const fork = (await forkSession(store, { sessionID: s.session.id, messageID: id(3), include: "through" }, NOW)).session;
    const msgs = await store.messages(fork.id);
    const copied = msgs[3];
    expect(copied?.info.role === "user" && copied.info.prev).toBe(msgs[0]?.info.id);
    const compaction = copied?.parts.find((p) => p.type === "compaction");
    expect(compaction?.type === "compaction" && compaction.tail_start_id).toBe(msgs[1]?.info.id);
  });

  it("copies the files of the branch shown: another branch's later steps never count", async () => {
    // Turn one, then its answer's second turn; then an edit of turn one as a new branch (its steps are newer).
    const b = new SessionBuilder();
    const u1 = b.user("Fix the date bug");
    b.assistant(u1, [{ type: "step-start", snapshot: "before-fix" }, { type: "text", text: "Fixed." }, { type: "step-finish", reason: "stop", cost: 0, tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } } }, { type: "patch", hash: "before-fix", files: ["src/dates.js"] }]);
    const u2 = b.user("Run the tests");
    const a2 = b.assistant(u2, [{ type: "step-start", snapshot: "after-fix" }, { type: "text", text: "All pass." }]);
    const edit = b.user("Explain the project");
    edit.prev = "root";
    b.assistant(edit, [{ type: "step-start", snapshot: "branch-two-start" }, { type: "text", text: "It formats dates." }]);
    const first = b.build();
    first.session.branches = { root: u1.id };
    const store = await storeWith(first);
    // Through the end of the older branch: nothing ran after it there, so the current files (that branch's, shown).
    const through = await forkSession(store, { sessionID: first.session.id, messageID: a2.id, include: "through" }, NOW);
    expect(through.filesAt).toBeUndefined();
    // Through its first answer: the files right after it, on this branch.
    const mid = await forkSession(store, { sessionID: first.session.id, messageID: first.messages[1]?.info.id ?? "", include: "through" }, NOW);
    expect(mid.filesAt).toBe("after-fix");
  });

  it("throws a named error when the session or message is gone", async () => {
    const { s, store } = await setup();
    await expect(forkSession(store, { sessionID: "ses_gone", messageID: "msg_x", include: "before" }, NOW)).rejects.toBeInstanceOf(ForkSourceError);
    await expect(forkSession(store, { sessionID: s.session.id, messageID: "msg_x", include: "before" }, NOW)).rejects.toMatchObject({ name: "ForkSourceError" });
  });
});
