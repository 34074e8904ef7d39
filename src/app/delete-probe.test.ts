/**
 * The check made when a session's Delete is pressed (`probeDelete`) only words the question: the user may still say
 * Cancel. In a full storage it must not make room (the glance's pictures, other sessions' terminal logs) the way the
 * check at the answer (`prepareDelete`) does; it judges from what making room could free (`roomToMake`).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { GLANCE_KEY, pictureKey } from "../ui/glance/dismiss";
import { storedDeleteSession } from "../testing/delete-app";
import { fakeStorage, type FakeStorage } from "../testing/fake-storage";
import { notePendingDelete, PENDING_DELETES_KEY, probePendingDelete } from "./pending-deletes";
import { prepareDelete, probeDelete } from "./session-actions";
import { fitLog, makeRoom, roomToMake } from "./terminal-log";
import { terminalLogKey } from "./terminal-log-key";

afterEach(() => vi.unstubAllGlobals());

/** A terminal log of `n` commands with 1,000 characters of output each, the newest started at `start + n - 1`. */
const logOf = (n: number, start = 0, running = false) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: `cmd_${i}`, command: "cat big", start: start + i, status: running && i === n - 1 ? "running" : "done", output: "x".repeat(1_000) })));

/** Every item, as stored. */
const items = (memo: FakeStorage) => new Map(memo.m);

/** Two glance pictures and their index. */
function keepGlances(memo: FakeStorage) {
  memo.setItem(GLANCE_KEY, JSON.stringify(["ses_g1", "ses_g2"]));
  memo.setItem(pictureKey("ses_g1"), "p".repeat(2_000));
  memo.setItem(pictureKey("ses_g2"), "q".repeat(2_000));
}

describe("roomToMake", () => {
  /** Two glance pictures, an old log, one with a command running, and the log of the session being deleted (`ses_me`). */
  function storageWithRoom(): FakeStorage {
    const memo = fakeStorage();
    keepGlances(memo);
    memo.setItem(terminalLogKey("ses_old"), logOf(5));
    memo.setItem(terminalLogKey("ses_busy"), logOf(5, 100, true));
    memo.setItem(terminalLogKey("ses_me"), logOf(5, 200));
    return memo;
  }

  it("counts the glance's pictures and the other sessions' logs (a running one as far as it can be cut), and changes nothing", () => {
    const memo = storageWithRoom();
    memo.setItem("tabcode.settings", "s".repeat(500));
    const before = items(memo);
    const glances = GLANCE_KEY.length + JSON.stringify(["ses_g1", "ses_g2"]).length + 2 * (pictureKey("ses_g1").length + 2_000);
    const busy = JSON.parse(logOf(5, 100, true));
    const expected = glances + logOf(5).length + logOf(5, 100, true).length - JSON.stringify(fitLog(busy, 0)).length;
    expect(roomToMake(memo, "ses_me")).toBe(expected);
    expect(items(memo)).toEqual(before);
    // Without the glance and the other logs there is nothing to free but the excepted session's own log.
    expect(roomToMake(fakeStorage(), "ses_me")).toBe(0);
    expect(roomToMake(undefined)).toBe(0);
  });

  it("is what makeRoom frees when asked for everything", () => {
    const memo = storageWithRoom();
    const room = roomToMake(memo, "ses_me");
    const used = memo.used();
    expect(makeRoom(Number.MAX_SAFE_INTEGER, memo, "ses_me")).toBe(true);
    // Keys of the logs removed whole come on top.
    expect(used - memo.used()).toBe(room + terminalLogKey("ses_old").length);
    expect(roomToMake(memo, "ses_me")).toBe(0);
    expect(memo.getItem(terminalLogKey("ses_me"))).toBe(logOf(5, 200));
  });
});

describe("the check made when Delete is pressed", () => {
  /** A stored session with its own terminal log, in a localStorage of `quota` characters. */
  async function storedSession(quota: number) {
    const stored = await storedDeleteSession(quota);
    stored.memo.setItem(terminalLogKey(stored.s.id), logOf(2, 500));
    return stored;
  }
  /** Fills the rest of the storage (settings and the like, nothing that gives way). */
  const fill = (memo: FakeStorage, quota: number) => memo.setItem("tabcode.settings", "s".repeat(quota - memo.used() - "tabcode.settings".length));

  it("in a full storage: frees nothing (Cancel leaves other sessions' logs and the glance byte for byte); the answer's check makes the room", async () => {
    const quota = 40_000;
    const { memo, store, s, app } = await storedSession(quota);
    keepGlances(memo);
    memo.setItem(terminalLogKey("ses_other"), logOf(12));
    fill(memo, quota);
    const before = items(memo);

    // Pressed: the question says it can be undone (making room would let the note in), and nothing changed.
    const probe = await probeDelete(s);
    expect(probe).toEqual({ undoable: true });
    expect(items(memo)).toEqual(before);
    // Cancel: nothing to call off, and still nothing changed; so again for a second press and Cancel.
    expect(await probeDelete(s)).toEqual({ undoable: true });
    expect(items(memo)).toEqual(before);

    // The user says Delete: the room is made now, and the delete is undoable as the question said.
    const plan = await prepareDelete(app, s);
    expect(plan.undoable).toBe(true);
    expect(memo.getItem(GLANCE_KEY)).toBeNull();
    expect(memo.getItem(pictureKey("ses_g1"))).toBeNull();
    expect((memo.getItem(terminalLogKey("ses_other")) ?? "").length).toBeLessThan(logOf(12).length);
    // The session's own log stays for its Undo.
    expect(memo.getItem(terminalLogKey(s.id))).toBe(logOf(2, 500));
    const done = await plan.run();
    expect(done.undo).toBeTypeOf("function");
    await done.undo?.();
    expect(await store.getSession(s.id)).toBeDefined();
  });

  it("in a full storage where making room could not help: for good, and nothing freed", async () => {
    const quota = 20_000;
    const { memo, s } = await storedSession(quota);
    // A glance index with no picture to its name and a tiny log: far less than the note needs.
    memo.setItem(GLANCE_KEY, "[]");
    fill(memo, quota);
    const before = items(memo);
    expect(await probeDelete(s)).toEqual({ undoable: false, why: "full" });
    expect(items(memo)).toEqual(before);
  });

  it("in a full storage where making room could not help: the answer's check frees nothing either (the delete is for good anyway)", async () => {
    const quota = 20_000;
    const { memo, s, app } = await storedSession(quota);
    // A glance picture, but far smaller than the note needs.
    memo.setItem(GLANCE_KEY, JSON.stringify(["ses_g1"]));
    memo.setItem(pictureKey("ses_g1"), "p");
    fill(memo, quota);
    const before = items(memo);
    expect(await probeDelete(s)).toEqual({ undoable: false, why: "full" });
    const plan = await prepareDelete(app, s);
    expect(plan.undoable).toBe(false);
    expect(plan.why).toBe("full");
    expect(items(memo)).toEqual(before);
    plan.cancel();
  });

  it("with room: undoable, and the note it wrote is gone at once, leaving another tab's note of the session its time", async () => {
    const { memo, s } = await storedSession(100_000);
    const before = items(memo);
    expect(await probeDelete(s)).toEqual({ undoable: true });
    expect(items(memo)).toEqual(before);
    expect(memo.getItem(PENDING_DELETES_KEY)).toBeNull();
    // Another tab deleted it a moment ago (its Undo still offered), and another session's delete is pending.
    notePendingDelete(s.id, 1_000, memo);
    notePendingDelete("ses_b", 2_000, memo);
    const noted = memo.getItem(PENDING_DELETES_KEY);
    expect(await probeDelete(s)).toEqual({ undoable: true });
    expect(memo.getItem(PENDING_DELETES_KEY)).toBe(noted);
  });

  it("never writes the entries every tab shares (a put-back would erase a note another tab wrote in between), only a key of its own it takes back", () => {
    const memo = fakeStorage(100_000);
    notePendingDelete("ses_a", 1_000, memo);
    const written: string[] = [];
    const setItem = memo.setItem.bind(memo);
    memo.setItem = (k, v) => {
      written.push(k);
      setItem(k, v);
    };
    const before = items(memo);
    expect(probePendingDelete("ses_b", 2_000, memo)).toBe("noted");
    expect(written).not.toContain(PENDING_DELETES_KEY);
    expect(written).toHaveLength(1);
    expect(items(memo)).toEqual(before);
  });

  it("in a full storage counts only what the note adds to the entries already stored: a little room makes it undoable", () => {
    // Other sessions' deletes are pending: the note grows the stored entries by one entry only.
    const memo = fakeStorage(20_000);
    for (let i = 0; i < 20; i++) notePendingDelete(`ses_pending_${i}`, 1_000 + i, memo);
    memo.setItem("tabcode.settings", "s".repeat(20_000 - memo.used() - "tabcode.settings".length));
    const entry = `,"ses_new":${2_000}`.length;
    const asked: number[] = [];
    const couldMakeRoom = (need: number) => {
      asked.push(need);
      return need <= entry;
    };
    expect(probePendingDelete("ses_new", 2_000, memo, couldMakeRoom)).toBe("noted");
    expect(asked).toEqual([entry]);
    // The real note asks for the same room.
    const made: number[] = [];
    expect(
      notePendingDelete("ses_new", 2_000, memo, (need) => {
        made.push(need);
        memo.setItem("tabcode.settings", "s".repeat((memo.getItem("tabcode.settings") ?? "").length - need));
        return true;
      }),
    ).toBe("noted");
    expect(made).toEqual([entry]);
  });

  it("refused for another reason: says so, and asks for no room", async () => {
    const { memo, s } = await storedSession(Number.POSITIVE_INFINITY);
    memo.setItem = () => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    };
    let asked = 0;
    expect(
      probePendingDelete(s.id, 1_000, memo, () => {
        asked++;
        return true;
      }),
    ).toBe("refused");
    expect(asked).toBe(0);
    expect(await probeDelete(s)).toEqual({ undoable: false, why: "refused" });
  });
});
