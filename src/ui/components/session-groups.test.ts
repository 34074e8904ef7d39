import { describe, expect, it } from "vitest";
import type { Session } from "../../core/schema";
import { groupSessions } from "./session-groups";

const now = new Date(2026, 11, 1, 10).getTime();
const s = (id: string, updated: number) => ({ id, title: id, time: { created: updated, updated } }) as unknown as Session;

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
});
