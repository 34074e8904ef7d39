import { describe, expect, it } from "vitest";
import { History, makeSession, text } from "../compaction/test-fixtures";
import { planCollection, referencedSnapshots } from "./gc";

const tree = (files: Record<string, string>) => ({ files, dirs: [] });

describe("planCollection", () => {
  it("drops unreferenced trees and the blobs only they used; keeps blobs of live trees and of workspaces", () => {
    const plan = planCollection({
      trees: [
        { hash: "t-live", tree: tree({ "a.txt": "b1", "b.txt": "b2" }), at: 0 },
        { hash: "t-dead", tree: tree({ "a.txt": "b1", "old.txt": "b3" }), at: 0 },
        { hash: "t-legacy", tree: tree({ "x.txt": "b5" }) },
      ],
      blobs: ["b1", "b2", "b3", "b4", "b5", "b6"],
      liveTrees: new Set(["t-live"]),
      workspaceBlobs: new Set(["b4"]),
      now: 1_000_000_000,
    });
    expect(plan.trees.sort()).toEqual(["t-dead", "t-legacy"]);
    expect(plan.blobs.sort()).toEqual(["b3", "b5", "b6"]);
  });

  it("keeps a tree written moments ago even if no message names it yet", () => {
    const plan = planCollection({
      trees: [{ hash: "t-new", tree: tree({ "a.txt": "b1" }), at: 1_000 }],
      blobs: ["b1"],
      liveTrees: new Set(),
      workspaceBlobs: new Set(),
      now: 2_000,
    });
    expect(plan).toEqual({ trees: [], blobs: [] });
  });
});

describe("referencedSnapshots", () => {
  it("names every tree a session may restore: step starts, patches, where steps and left branches end, the revert point", () => {
    const h = new History();
    h.user(text("one"));
    h.assistant([
      (ids) => ({ ...ids, type: "step-start", snapshot: "t-start" }),
      (ids) => ({ ...ids, type: "patch", hash: "t-start", files: ["a.txt"] }),
      (ids) => ({ ...ids, type: "step-finish", reason: "stop", snapshot: "t-end", cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } }),
      (ids) => ({ ...ids, type: "snapshot", snapshot: "t-left" }),
    ]);
    const session = { ...makeSession(h.sessionID), revert: { messageID: "msg_x", snapshot: "t-revert" } };
    expect([...referencedSnapshots(session, h.msgs)].sort()).toEqual(["t-end", "t-left", "t-revert", "t-start"]);
  });
});
