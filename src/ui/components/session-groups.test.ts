import { describe, expect, it } from "vitest";
import type { Session } from "../../core/schema";
import { groupSessions } from "./session-groups";

const now = new Date(2026, 11, 1, 10).getTime();
const s = (id: string, updated: number, parentID?: string) => ({ id, title: id, time: { created: updated, updated }, ...(parentID ? { parentID } : {}) }) as unknown as Session;

describe("groupSessions", () => {
  it("pinned first, then Today / Yesterday / Earlier, keeping the list's order; empty groups are left out", () => {
    const list = [s("a", now - 1000), s("b", now - 20 * 3600_000), s("c", now - 5 * 86_400_000), s("d", now - 2000)];
    const groups = groupSessions(list, new Set(["c"]), now);
    expect(groups.map((g) => [g.label, g.sessions.map((x) => x.id)])).toEqual([
      ["Pinned", ["c"]],
      ["Today", ["a", "d"]],
      ["Yesterday", ["b"]],
    ]);
  });

  it("lists a child session right under its parent in the same group, grandchildren deeper; one of another group (newer, pinned) stays in its own", () => {
    const old = now - 3 * 86_400_000;
    const list = [s("fresh", now - 1000, "parent"), s("other", now - 2000), s("child", old + 3000, "parent"), s("grandchild", old + 2000, "child"), s("parent", old), s("orphan", now - 4000, "gone"), s("pinnedKid", old + 1000, "parent")];
    const groups = groupSessions(list, new Set(["pinnedKid"]), now);
    expect(groups.map((g) => [g.label, g.sessions.map((x) => x.id)])).toEqual([
      ["Pinned", ["pinnedKid"]],
      ["Today", ["fresh", "other", "orphan"]],
      ["Earlier", ["parent", "child", "grandchild"]],
    ]);
    expect(Object.fromEntries(groups.depths)).toEqual({ pinnedKid: 0, fresh: 0, other: 0, orphan: 0, parent: 0, child: 1, grandchild: 2 });
    // A cycle in damaged data lists each session once.
    const loop = groupSessions([s("a", now, "b"), s("b", now, "a")], new Set(), now);
    expect(loop.flatMap((g) => g.sessions.map((x) => x.id)).sort()).toEqual(["a", "b"]);
  });
});
