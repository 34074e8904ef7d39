import { describe, expect, it } from "vitest";
import { memoryFS } from "../../testing/memory-fs";
import { makeToolContext, runTool, runToolError } from "../../testing/workspace-tool-context";
import type { Sandbox, SandboxFS } from "../ports/sandbox";
import { discoverSkills } from "../skills/discover";
import { createSkillTool } from "./skill";

function sandbox(fs: SandboxFS, root = "/ws"): Sandbox {
  const unused = () => Promise.reject(new Error("not used in this test"));
  return { kind: "local", root, fs, exec: unused, snapshot: unused, restore: unused, changed: unused, readAt: unused };
}

const fs = memoryFS({
  "/ws/.skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Fill PDF forms\n---\n## Steps\nRun scripts/fill.py.\n",
  "/ws/.skills/pdf/scripts/fill.py": "print('fill')",
  "/ws/.skills/pdf/reference/forms.md": "forms",
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/ws/.skills/pdf/assets/a${String(i).padStart(2, "0")}.txt`, "x"])),
});
const getSkills = async () => (await discoverSkills(fs, "/ws", [{ name: "tone", description: "Write in our tone", body: "Be kind." }])).skills;

describe("skill tool", () => {
  it("loads a skill: content, base directory and up to 10 files, after asking permission", async () => {
    const tool = createSkillTool(getSkills);
    const ctx = makeToolContext({ sandbox: sandbox(fs) });
    const r = await runTool(tool, { name: "pdf" }, ctx);
    expect(r.title).toBe("Loaded skill: pdf");
    expect(ctx.asks).toEqual([{ permission: "skill", patterns: ["pdf"], always: ["pdf"], metadata: { location: "/ws/.skills/pdf/SKILL.md" } }]);
    const lines = r.output.split("\n");
    expect(lines.slice(0, 7)).toEqual([
      '<skill_content name="pdf">',
      "# Skill: pdf",
      "",
      "## Steps",
      "Run scripts/fill.py.",
      "",
      "Base directory for this skill: file:///ws/.skills/pdf",
    ]);
    const files = lines.filter((l) => l.startsWith("<file>"));
    expect(files).toHaveLength(10);
    expect(r.output).not.toContain("SKILL.md</file>");
    expect(r.output).toContain("<skill_files>");
    expect(r.output.endsWith("</skill_files>\n</skill_content>")).toBe(true);
  });

  it("loads a skill from settings (no folder, no files)", async () => {
    const r = await runTool(createSkillTool(getSkills), { name: "tone" }, makeToolContext({ sandbox: sandbox(fs) }));
    expect(r.output).toContain("# Skill: tone\n\nBe kind.\n");
    expect(r.output).toContain("<skill_files>\n</skill_files>");
  });

  it("reports an unknown name with the available skills, without asking", async () => {
    const ctx = makeToolContext({ sandbox: sandbox(fs) });
    expect(await runToolError(createSkillTool(getSkills), { name: "nope" }, ctx)).toBe('Unknown skill "nope". Available skills: pdf, tone.');
    expect(ctx.asks).toEqual([]);
  });

  it("stops when the skill permission is refused", async () => {
    const ctx = makeToolContext({ sandbox: sandbox(fs), deny: ["skill"] });
    expect(await runToolError(createSkillTool(getSkills), { name: "pdf" }, ctx)).toMatch(/Permission skill refused/);
  });

  it("lists the skills in its description when given, or points at the system prompt", async () => {
    const listed = createSkillTool(getSkills, await getSkills());
    expect(listed.description).toContain("## Available Skills\n- **pdf**: Fill PDF forms\n- **tone**: Write in our tone");
    expect(createSkillTool(getSkills).description).toContain("<available_skills>");
    expect(listed.spec().inputSchema).toMatchObject({ type: "object", required: ["name"] });
  });
});
