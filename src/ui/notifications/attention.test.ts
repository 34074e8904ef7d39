import { describe, expect, it } from "vitest";
import { addUnseen, badgeTitle, clearSeen, dropApproval, isUnwatched, notificationText, type Unseen, type Watching } from "./attention";

const looking: Watching = { visible: true, focused: true, currentSessionID: "ses_a" };
const none: Unseen = new Map();

describe("run attention", () => {
  it("an event is missed when the tab is hidden or unfocused, or another session is open", () => {
    const ev = { sessionID: "ses_a", kind: "finished" as const };
    expect(isUnwatched(ev, looking)).toBe(false);
    expect(isUnwatched(ev, { ...looking, visible: false })).toBe(true);
    expect(isUnwatched(ev, { ...looking, focused: false })).toBe(true);
    expect(isUnwatched(ev, { ...looking, currentSessionID: "ses_b" })).toBe(true);
    expect(isUnwatched(ev, { visible: true, focused: true })).toBe(true);
  });

  it("missed events count once per session; what is watched adds nothing", () => {
    let u = addUnseen(none, { sessionID: "ses_a", kind: "finished" }, looking);
    expect(u.size).toBe(0);
    const away = { ...looking, visible: false };
    u = addUnseen(u, { sessionID: "ses_a", kind: "finished" }, away);
    u = addUnseen(u, { sessionID: "ses_a", kind: "finished" }, away);
    u = addUnseen(u, { sessionID: "ses_b", kind: "approval" }, away);
    expect([...u]).toEqual([
      ["ses_a", "finished"],
      ["ses_b", "approval"],
    ]);
    // A finish after an unseen approval keeps the approval mark until it is seen.
    expect(addUnseen(u, { sessionID: "ses_b", kind: "finished" }, away).get("ses_b")).toBe("approval");
    expect(dropApproval(u, "ses_b").has("ses_b")).toBe(false);
    expect(dropApproval(u, "ses_a")).toBe(u);
  });

  it("coming back to the session clears it; hidden, unfocused or elsewhere clears nothing", () => {
    const u: Unseen = new Map([
      ["ses_a", "finished"],
      ["ses_b", "failed"],
    ]);
    expect(clearSeen(u, { ...looking, visible: false })).toBe(u);
    expect(clearSeen(u, { ...looking, focused: false })).toBe(u);
    expect(clearSeen(u, { visible: true, focused: true })).toBe(u);
    expect([...clearSeen(u, looking).keys()]).toEqual(["ses_b"]);
  });

  it("the title badge counts sessions and marks the most urgent kind", () => {
    expect(badgeTitle("fix tests — tabcode", none)).toBe("fix tests — tabcode");
    expect(badgeTitle("fix tests — tabcode", new Map([["ses_a", "finished"]]))).toBe("(1) ✓ fix tests — tabcode");
    expect(
      badgeTitle(
        "tabcode",
        new Map([
          ["ses_a", "finished"],
          ["ses_b", "failed"],
        ]),
      ),
    ).toBe("(2) ✗ tabcode");
    expect(
      badgeTitle(
        "tabcode",
        new Map([
          ["ses_a", "approval"],
          ["ses_b", "failed"],
        ]),
      ),
    ).toBe("(2) ⚠ tabcode");
    expect(notificationText("approval", "fix tests").title).toBe("Approval needed — fix tests");
  });
});
