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

  it("lists a child session right under its parent (in the parent's group), grandchildren deeper; an orphan stays at the top", () => {
    const list = [s("child", now - 1000, "parent"), s("other", now - 2000), s("grandchild", now - 3000, "child"), s("parent", now - 3 * 86_400_000), s("orphan", now - 4000, "gone")];
    const groups = groupSessions(list, new Set(), now);
    expect(groups.map((g) => [g.label, g.sessions.map((x) => x.id)])).toEqual([
      ["Today", ["other", "orphan"]],
      ["Earlier", ["parent", "child", "grandchild"]],
    ]);
    expect(Object.fromEntries(groups.depths)).toEqual({ other: 0, orphan: 0, parent: 0, child: 1, grandchild: 2 });
    // A cycle in damaged data lists each session once.
    const loop = groupSessions([s("a", now, "b"), s("b", now, "a")], new Set(), now);
    expect(loop.flatMap((g) => g.sessions.map((x) => x.id)).sort()).toEqual(["a", "b"]);
  });
});
