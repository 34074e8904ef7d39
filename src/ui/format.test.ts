import { describe, expect, it } from "vitest";
import { dateGroup, formatDay, formatTime, relativeTime } from "./format";

const at = (y: number, mo: number, d: number, h = 12, mi = 0) => new Date(y, mo - 1, d, h, mi).getTime();

describe("dates", () => {
  const now = at(2026, 12, 1, 9, 30);
  it("groups by local calendar day", () => {
    expect(dateGroup(at(2026, 12, 1, 0, 1), now)).toBe("Today");
    expect(dateGroup(at(2026, 11, 30, 23, 59), now)).toBe("Yesterday");
    expect(dateGroup(at(2026, 11, 30, 0, 0), now)).toBe("Yesterday");
    expect(dateGroup(at(2026, 11, 29, 23, 59), now)).toBe("Earlier");
  });

  it("one day format everywhere: relative times fall back to it, message times start with it", () => {
    const old = at(2026, 11, 20, 15, 0);
    expect(relativeTime(old, now)).toBe(formatDay(old, now));
    expect(formatTime(old, now).startsWith(`${formatDay(old, now)}, `)).toBe(true);
    expect(formatDay(at(2025, 3, 4), now)).toMatch(/2025/);
    expect(formatDay(old, now)).not.toMatch(/2026/);
  });
});
