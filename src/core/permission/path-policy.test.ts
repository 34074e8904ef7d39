import { describe, expect, it } from "vitest";
import type { Ruleset } from "../schema";
import { DEFAULT_RULES } from "./evaluate";
import { changeRefusal, pathPolicy } from "./path-policy";

const rules: Ruleset = [
  ...DEFAULT_RULES,
  { permission: "protect", pattern: "config/**", action: "deny" },
  { permission: "protect", pattern: "config/local.json", action: "allow" },
  { permission: "edit", pattern: "*.lock", action: "deny" },
];
const policy = pathPolicy("/workspace", [rules]);

describe("changeRefusal", () => {
  it("refuses protected paths with the rule's words, and a later allow lifts one", () => {
    expect(changeRefusal(policy, "/workspace/config/app.json", "write")?.message).toBe(
      'config/app.json: write refused — protected by your rule "protect config/**"',
    );
    expect(changeRefusal(policy, "/workspace/config/deep/x", "delete")?.rule?.pattern).toBe("config/**");
    expect(changeRefusal(policy, "/workspace/config/local.json", "write")).toBeUndefined();
    expect(changeRefusal(policy, "/workspace/src/a.ts", "write")).toBeUndefined();
  });
  it("refuses paths an edit rule denies (files, not the directories they need)", () => {
    expect(changeRefusal(policy, "/workspace/package.lock", "rename")?.message).toContain('denied by your rule "edit *.lock"');
    expect(changeRefusal(policy, "/workspace/dir.lock", "mkdir")).toBeUndefined();
    expect(changeRefusal(policy, "/workspace/config/sub", "mkdir")?.rule?.permission).toBe("protect");
  });
  it("keeps outside the workspace read-only except the scratch directory and /dev/null", () => {
    expect(changeRefusal(policy, "/etc/passwd", "write")?.message).toContain("outside the workspace are read-only");
    expect(changeRefusal(policy, "/workspace/../etc/x", "write")?.path).toBe("/etc/x");
    expect(changeRefusal(policy, "/tmp/x", "write")).toBeUndefined();
    expect(changeRefusal(policy, "/tmp", "delete")).toBeDefined();
    expect(changeRefusal(policy, "/tmp", "mkdir")).toBeUndefined();
    expect(changeRefusal(policy, "/dev/null", "write")).toBeUndefined();
    expect(changeRefusal(policy, "/workspace", "delete")).toBeDefined();
  });
  it("an external_directory deny closes the scratch directory too", () => {
    const closed = pathPolicy("/workspace", [[...DEFAULT_RULES, { permission: "external_directory", pattern: "*", action: "deny" }]]);
    expect(changeRefusal(closed, "/tmp/x", "write")?.rule?.permission).toBe("external_directory");
  });
  it("without rules nothing inside the workspace is refused", () => {
    expect(changeRefusal(pathPolicy("/workspace", [DEFAULT_RULES]), "/workspace/config/app.json", "delete")).toBeUndefined();
  });
});
