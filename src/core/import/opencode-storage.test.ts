import { describe, expect, it } from "vitest";
import { importOpenCodeStorage } from "./opencode-storage";
import { fixtureFiles } from "./test-files";

describe("OpenCode storage tree (pre-1.2)", () => {
  it("rebuilds sessions from session/message/part files in id order; a broken file is reported by path and skipped", () => {
    const { sessions, issues } = importOpenCodeStorage(fixtureFiles("opencode-storage"), 1_800_000_000_000);
    expect(sessions).toHaveLength(1);
    const s = sessions[0];
    expect(s?.info).toMatchObject({ title: "Explain the build script", version: "0.15.8", source: { tool: "opencode", id: "ses_5c1d2e3f4ffeStorageTree01", updated: 1755000060000 } });
    expect(s?.messages.map((m) => m.parts.map((p) => p.type))).toEqual([["text"], ["step-start", "tool", "text"]]);
    // No step-finish in this old file: the message's own usage counts.
    expect(s?.info.cost).toBe(0.004);
    expect(issues).toEqual([{ at: expect.stringContaining("prt_a3b2c1d0e006StorageBad01.json"), problem: expect.stringMatching(/JSON/i) }]);
  });

  it("says what to drop when only message files came", () => {
    const only = fixtureFiles("opencode-storage").filter((f) => f.path.includes("/message/"));
    const { sessions, issues } = importOpenCodeStorage(only, 0);
    expect(sessions).toEqual([]);
    expect(issues[0]?.problem).toContain("drop the whole storage folder");
  });
});
