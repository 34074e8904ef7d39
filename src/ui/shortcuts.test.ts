import { describe, expect, it } from "vitest";
import { type KeyLike, matchShortcut, SHORTCUTS } from "./shortcuts";

const k = (key: string, over: Partial<KeyLike> = {}): KeyLike => ({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, inField: false, ...over });

describe("matchShortcut", () => {
  it("maps each documented shortcut, Ctrl or ⌘ alike", () => {
    expect(matchShortcut(k("k", { ctrlKey: true }))).toBe("search");
    expect(matchShortcut(k("k", { metaKey: true }))).toBe("search");
    expect(matchShortcut(k("O", { ctrlKey: true, shiftKey: true }))).toBe("new-session");
    expect(matchShortcut(k(".", { metaKey: true }))).toBe("switch-agent");
    expect(matchShortcut(k("b", { ctrlKey: true }))).toBe("toggle-sessions");
    expect(matchShortcut(k("b", { ctrlKey: true, altKey: true }))).toBe("toggle-files");
    expect(matchShortcut(k("Escape", { shiftKey: true }))).toBe("focus-composer");
    expect(matchShortcut(k("ArrowDown", { altKey: true }))).toBe("next-session");
    expect(matchShortcut(k("ArrowUp", { altKey: true }))).toBe("prev-session");
    expect(matchShortcut(k("?", { shiftKey: true }))).toBe("help");
  });

  it("never takes Tab (focus must move) nor plain typing, and ? only outside text fields", () => {
    expect(matchShortcut(k("Tab"))).toBeUndefined();
    expect(matchShortcut(k("Tab", { inField: true }))).toBeUndefined();
    expect(matchShortcut(k("k"))).toBeUndefined();
    expect(matchShortcut(k("?", { inField: true, shiftKey: true }))).toBeUndefined();
    expect(matchShortcut(k("Escape"))).toBeUndefined();
  });

  it("the cheat sheet lists every action once", () => {
    expect(new Set(SHORTCUTS.map((s) => s.action)).size).toBe(SHORTCUTS.length);
  });
});
