import { describe, expect, it } from "vitest";
import type { Ruleset } from "../schema";
import { DEFAULT_RULES, decideAsk, evaluate, evaluateWithApprovals, isToolDisabled, wildcardMatch } from "./evaluate";

describe("wildcardMatch", () => {
  it.each([
    ["ls", "ls *", true],
    ["ls -la", "ls *", true],
    ["lsof", "ls *", false],
    ["git status", "git status *", true],
    ["git status --short", "git status *", true],
    ["git stash", "git status *", false],
    ["anything at all", "*", true],
    ["", "*", true],
    ["a/b/c.ts", "a/*.ts", true],
    ["src\\win\\path.ts", "src/*", true],
    ["rm x", "rm ?", true],
    ["rm xy", "rm ?", false],
    ["/workspace/.env", "*.env", true],
    ["file.txt", "*.md", false],
    ["abc", "a*b*c", true],
    ["ab", "a*b*c", false],
    ["rm (x)", "rm (x)", true],
    ["a.b", "a?b", true],
    ["axb", "a.b", false],
  ])("%j vs %j → %s", (text, pattern, expected) => {
    expect(wildcardMatch(text, pattern)).toBe(expected);
  });

  it("stays fast on hostile input (no regex backtracking)", () => {
    const text = `${"a".repeat(5000)}c`;
    expect(wildcardMatch(text, "*a*a*a*a*a*a*a*a*b")).toBe(false);
  });
});

describe("evaluate", () => {
  const rules: Ruleset = [
    { permission: "*", pattern: "*", action: "allow" },
    { permission: "bash", pattern: "*", action: "ask" },
    { permission: "bash", pattern: "git status *", action: "allow" },
    { permission: "bash", pattern: "rm *", action: "deny" },
  ];

  it("takes the last matching rule", () => {
    expect(evaluate("bash", "git status", rules)).toBe("allow");
    expect(evaluate("bash", "git push", rules)).toBe("ask");
    expect(evaluate("bash", "rm -rf /", rules)).toBe("deny");
    expect(evaluate("read", "/x", rules)).toBe("allow");
  });

  it("concatenates rulesets in order, later ones winning", () => {
    expect(evaluate("bash", "rm x", rules, [{ permission: "bash", pattern: "rm x", action: "allow" }])).toBe("allow");
  });

  it("defaults to ask when nothing matches", () => {
    expect(evaluate("bash", "ls", [])).toBe("ask");
  });

  it("asks for .env files but not .env.example by default", () => {
    expect(evaluate("read", "/workspace/.env", DEFAULT_RULES)).toBe("ask");
    expect(evaluate("read", "/workspace/.env.local", DEFAULT_RULES)).toBe("ask");
    expect(evaluate("read", "/workspace/.env.example", DEFAULT_RULES)).toBe("allow");
    expect(evaluate("read", "/workspace/src/a.ts", DEFAULT_RULES)).toBe("allow");
  });
});

describe("approvals never beat a configured deny", () => {
  const configured: Ruleset[] = [
    [{ permission: "*", pattern: "*", action: "allow" }],
    [
      { permission: "bash", pattern: "*", action: "ask" },
      { permission: "bash", pattern: "rm *", action: "deny" },
    ],
  ];
  const approvals: Ruleset = [
    { permission: "bash", pattern: "rm *", action: "allow" },
    { permission: "bash", pattern: "*", action: "allow" },
  ];

  it("keeps deny even when an always approval matches", () => {
    expect(evaluateWithApprovals("bash", "rm -rf /", configured, approvals)).toMatchObject({ action: "deny", rule: { pattern: "rm *" } });
  });

  it("lets approvals turn ask into allow", () => {
    expect(evaluateWithApprovals("bash", "git push", configured, approvals)).toMatchObject({ action: "allow", approved: true });
    expect(evaluateWithApprovals("bash", "git push", configured)).toMatchObject({ action: "ask" });
  });

  it("still lets a later configured allow override an earlier configured deny", () => {
    const c: Ruleset[] = [[{ permission: "bash", pattern: "*", action: "deny" }, { permission: "bash", pattern: "git *", action: "allow" }]];
    expect(evaluateWithApprovals("bash", "git log", c)).toMatchObject({ action: "allow" });
    expect(evaluateWithApprovals("bash", "ls", c, [{ permission: "bash", pattern: "ls *", action: "allow" }])).toMatchObject({ action: "deny" });
  });
});

describe("decideAsk", () => {
  const configured: Ruleset[] = [[
    { permission: "*", pattern: "*", action: "allow" },
    { permission: "bash", pattern: "npm *", action: "ask" },
    { permission: "bash", pattern: "rm *", action: "deny" },
  ]];

  it("denies when any pattern is denied", () => {
    expect(decideAsk({ permission: "bash", patterns: ["ls", "rm x"] }, configured)).toMatchObject({ action: "deny", denied: { pattern: "rm x" } });
  });

  it("asks only for the patterns that need it", () => {
    expect(decideAsk({ permission: "bash", patterns: ["ls", "npm i"] }, configured)).toMatchObject({ action: "ask", asking: ["npm i"] });
    expect(decideAsk({ permission: "bash", patterns: ["ls"] }, configured)).toMatchObject({ action: "allow", asking: [] });
  });

  it("asks when mustAsk is set, unless something is denied", () => {
    expect(decideAsk({ permission: "bash", patterns: ["ls"], mustAsk: "why" }, configured)).toMatchObject({ action: "ask", asking: ["ls"] });
    expect(decideAsk({ permission: "bash", patterns: ["rm x"], mustAsk: "why" }, configured).action).toBe("deny");
  });
});

describe("isToolDisabled", () => {
  it("removes a tool only when its last matching rule is deny *", () => {
    expect(isToolDisabled("question", DEFAULT_RULES)).toBe(true);
    expect(isToolDisabled("question", DEFAULT_RULES, [{ permission: "question", pattern: "*", action: "allow" }])).toBe(false);
    expect(isToolDisabled("edit", [{ permission: "edit", pattern: "*", action: "deny" }, { permission: "edit", pattern: "plans/*", action: "allow" }])).toBe(false);
    expect(isToolDisabled("edit", [{ permission: "*", pattern: "*", action: "deny" }])).toBe(true);
    expect(isToolDisabled("bash", DEFAULT_RULES)).toBe(false);
  });
});
