import { describe, expect, it } from "vitest";
import { isInstructionPath } from "./instruction-paths";

describe("paths the system prompt is built from", () => {
  it("rules files at the root and skills under the skill folders; nothing else", () => {
    for (const p of ["AGENTS.md", "AGENTS.local.md", "/workspace/CLAUDE.md", "./.cursorrules", ".skills/greeter/SKILL.md", ".claude/skills/a/b/SKILL.md", ".opencode/skill/x/SKILL.md"]) expect(isInstructionPath(p), p).toBe(true);
    // A folder's own AGENTS.md goes with the first read of a file there, not with the system prompt.
    for (const p of ["README.md", "src/AGENTS.md", "agents.md.bak", "docs/SKILL.md", ".skills/greeter/notes.md", "MY_AGENTS.md"]) expect(isInstructionPath(p), p).toBe(false);
  });
});
