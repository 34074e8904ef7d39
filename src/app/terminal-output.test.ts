import { describe, expect, it } from "vitest";
import { cutForScreen, omittedWords, SHOWN, TAIL_ONLY } from "./terminal-output";

const seq = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i)).join("\n");

describe("cutForScreen (the terminal's long outputs)", () => {
  it("keeps a short output whole", () => {
    expect(cutForScreen("a\nb")).toEqual({ tail: "a\nb" });
    expect(cutForScreen(seq(1, 2000))).toEqual({ tail: seq(1, 2000) });
  });

  it("shows the first 200 lines and the last 1,800 of `seq 1 5000`, and says how many lines it left out", () => {
    const cut = cutForScreen(seq(1, 5000));
    expect(cut.head).toBe(seq(1, 200));
    expect(cut.tail).toBe(seq(3201, 5000));
    expect(cut.omitted?.lines).toBe(3000);
    expect(omittedWords(cut.omitted ?? { lines: 0, chars: 0 })).toBe("… 3,000 lines not shown …");
  });

  it("keeps to the character limits with long lines (whole lines only)", () => {
    const line = "x".repeat(99);
    const text = Array.from({ length: 1000 }, (_, i) => `${i}:${line}`).join("\n");
    const cut = cutForScreen(text);
    expect((cut.head ?? "").length).toBeLessThanOrEqual(SHOWN.headChars);
    expect(cut.tail.length).toBeLessThanOrEqual(SHOWN.tailChars);
    expect(cut.tail.startsWith(`${1000 - cut.tail.split("\n").length}:`)).toBe(true);
    expect(cut.tail.endsWith(`999:${line}`)).toBe(true);
    expect((cut.head ?? "").split("\n").length + (cut.omitted?.lines ?? 0) + cut.tail.split("\n").length).toBe(1000);
  });

  it("cuts inside a single huge line, and says it in characters", () => {
    const cut = cutForScreen("y".repeat(50_000));
    expect(cut.head).toBeUndefined();
    expect(cut.tail).toHaveLength(SHOWN.tailChars);
    expect(cut.omitted).toEqual({ lines: 0, chars: 50_000 - SHOWN.tailChars });
    expect(omittedWords(cut.omitted ?? { lines: 0, chars: 0 })).toBe("… 32,000 characters not shown …");
  });

  it("a running command's output so far: its end only", () => {
    const cut = cutForScreen(seq(1, 5000), TAIL_ONLY);
    expect(cut.head).toBeUndefined();
    expect(cut.tail).toBe(seq(3201, 5000));
    expect(cut.omitted?.lines).toBe(3200);
  });
});
