import { describe, expect, it } from "vitest";
import { isInstructionPath } from "./instruction-paths";

describe("paths the system prompt is built from", () => {
  it("rules files in any folder and skills under the skill folders; nothing else", () => {
    for (const p of ["AGENTS.md", "src/AGENTS.md", "/workspace/CLAUDE.md", "./.cursorrules", ".skills/greeter/SKILL.md", ".claude/skills/a/b/SKILL.md", ".opencode/skill/x/SKILL.md"]) expect(isInstructionPath(p), p).toBe(true);
    for (const p of ["README.md", "agents.md.bak", "docs/SKILL.md", ".skills/greeter/notes.md", "MY_AGENTS.md"]) expect(isInstructionPath(p), p).toBe(false);
  });
});
