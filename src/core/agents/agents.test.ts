import { describe, expect, it } from "vitest";
import { z } from "../zod";
import { bashPatterns } from "../permission/arity";
import { decideAsk, evaluate } from "../permission/evaluate";
import type { Ruleset } from "../schema";
import { defineTool } from "../tools/tool";
import { agentByName, BUILD_AGENT, PLAN_AGENT, rulesFor, toolPermission, toolsFor } from "./agents";

const fakeTool = (id: string) =>
  defineTool({ id, description: id, parameters: z.object({}), execute: async () => ({ title: id, output: "" }) });
const ALL = ["read", "edit", "write", "bash", "list", "glob", "grep", "todowrite", "question", "plan_enter", "plan_exit", "skill"].map(fakeTool);
const ids = (tools: { id: string }[]) => tools.map((t) => t.id);

function bash(agent: string, command: string, globalRules: Ruleset = []): string {
  return decideAsk({ permission: "bash", ...bashPatterns(command) }, [rulesFor(agent, globalRules)]).action;
}

describe("plan agent", () => {
  const rules = rulesFor("plan");

  it("denies edits except plan files", () => {
    expect(evaluate("edit", "src/app.ts", rules)).toBe("deny");
    expect(evaluate("edit", "README.md", rules)).toBe("deny");
    expect(evaluate("edit", ".tabcode/plans/refactor.md", rules)).toBe("allow");
    expect(evaluate("edit", ".tabcode/plans/notes.txt", rules)).toBe("deny");
  });

  it("denies the edit and write tools on ordinary files (both use the edit permission)", () => {
    expect(toolPermission("write")).toBe("edit");
    expect(evaluate(toolPermission("write"), "src/new.ts", rules)).toBe("deny");
    expect(evaluate(toolPermission("edit"), "package.json", rules)).toBe("deny");
  });

  it("allows read-only shell commands and asks for the rest", () => {
    expect(bash("plan", "ls -la")).toBe("allow");
    expect(bash("plan", "git status")).toBe("allow");
    expect(bash("plan", "git log --oneline -5 | head -3")).toBe("allow");
    expect(bash("plan", "grep -rn TODO src")).toBe("allow");
    expect(bash("plan", "cat a.txt > b.txt")).toBe("ask");
    expect(bash("plan", "cat a.txt 2>/dev/null")).toBe("allow");
    expect(bash("plan", "rm -rf build")).toBe("ask");
    expect(bash("plan", "npm install")).toBe("ask");
    expect(bash("plan", "git commit -m x")).toBe("ask");
    expect(bash("plan", "echo $(touch x)")).toBe("ask");
    expect(bash("plan", "find . -name '*.o' -delete")).toBe("ask");
    expect(bash("plan", "find . -exec rm {} +")).toBe("ask");
    expect(bash("plan", "find . -name '*.ts'")).toBe("allow");
    expect(bash("plan", "sort -o out.txt in.txt")).toBe("ask");
  });

  it("asks for read-only commands given an option that writes a file", () => {
    expect(bash("plan", "tree -o listing.txt")).toBe("ask");
    expect(bash("plan", "tree -L 2 -o listing.txt src")).toBe("ask");
    expect(bash("plan", "tree -R -H . src")).toBe("ask");
    expect(bash("plan", "git log --output=log.txt")).toBe("ask");
    expect(bash("plan", "git log -5 --output log.txt")).toBe("ask");
    expect(bash("plan", "git show --output=x.patch HEAD")).toBe("ask");
    expect(bash("plan", "sort --output=out.txt in.txt")).toBe("ask");
    expect(bash("plan", "tree -L 2 src")).toBe("allow");
    expect(bash("plan", "git log --oneline -5")).toBe("allow");
  });

  it("keeps the edit tool (for plan files) but drops nothing read-only", () => {
    expect(ids(toolsFor(PLAN_AGENT, ALL))).toEqual(["read", "edit", "write", "bash", "list", "glob", "grep", "todowrite", "question", "plan_exit", "skill"]);
  });

  it("has a read-only mode reminder", () => {
    expect(PLAN_AGENT.reminder).toMatch(/^You are in plan mode: read-only/);
    expect(PLAN_AGENT.description.length).toBeGreaterThan(0);
  });
});

describe("build agent", () => {
  it("allows everything by default, plus question and plan_enter", () => {
    const rules = rulesFor(BUILD_AGENT);
    expect(evaluate("edit", "src/app.ts", rules)).toBe("allow");
    expect(evaluate("question", "*", rules)).toBe("allow");
    expect(bash("build", "rm -rf build")).toBe("allow");
    expect(ids(toolsFor("build", ALL))).toEqual(["read", "edit", "write", "bash", "list", "glob", "grep", "todowrite", "question", "plan_enter", "skill"]);
  });
});

describe("rulesFor / toolsFor", () => {
  it("merges defaults → agent → global → session, later winning", () => {
    const global: Ruleset = [{ permission: "bash", pattern: "*", action: "ask" }];
    const session: Ruleset = [{ permission: "bash", pattern: "npm *", action: "allow" }];
    const rules = rulesFor("build", global, session);
    expect(evaluate("bash", "ls", rules)).toBe("ask");
    expect(evaluate("bash", "npm test", rules)).toBe("allow");
    expect(rules.slice(-2)).toEqual([...global, ...session]);
  });

  it("lets the user's global rules override an agent's", () => {
    expect(bash("plan", "npm test", [{ permission: "bash", pattern: "npm test *", action: "allow" }])).toBe("allow");
  });

  it("removes tools whose permission is denied with *", () => {
    const noBash: Ruleset = [{ permission: "bash", pattern: "*", action: "deny" }];
    expect(ids(toolsFor("build", ALL, [noBash]))).not.toContain("bash");
    const noSkill: Ruleset = [{ permission: "skill", pattern: "*", action: "deny" }];
    expect(ids(toolsFor("build", ALL, [noSkill]))).not.toContain("skill");
    const noEdit: Ruleset = [{ permission: "edit", pattern: "*", action: "deny" }];
    expect(ids(toolsFor("build", ALL, [noEdit]))).toEqual(["read", "bash", "list", "glob", "grep", "todowrite", "question", "plan_enter", "skill"]);
  });

  it("falls back to build for unknown agents", () => {
    expect(agentByName("nope")).toBe(BUILD_AGENT);
    expect(agentByName(undefined)).toBe(BUILD_AGENT);
    expect(agentByName("plan")).toBe(PLAN_AGENT);
  });
});
