import { describe, expect, it } from "vitest";
import { memoryFS } from "../../testing/memory-fs";
import { DEFAULT_RULES } from "../permission/evaluate";
import { skillsBlock, skillsMarkdown, visibleSkills } from "./block";
import { discoverSkills, type Skill, validateSkill } from "./discover";

const skillMd = (name: string, description: string, body = "Do the thing.") => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe("discoverSkills", () => {
  it("finds SKILL.md files recursively in every skill folder", async () => {
    const fs = memoryFS({
      "/ws/.skills/pdf/SKILL.md": skillMd("pdf", "Read and fill PDF forms"),
      "/ws/.skills/pdf/scripts/fill.py": "print()",
      "/ws/.opencode/skill/deploy/SKILL.md": skillMd("deploy", "Deploy the app"),
      "/ws/.opencode/skills/group/nested/SKILL.md": skillMd("nested-one", "Nested skill"),
      "/ws/.claude/skills/review/SKILL.md": skillMd("review", "Review code"),
      "/ws/.agents/skills/test/SKILL.md": skillMd("testing", "Write tests"),
      "/ws/src/SKILL.md": skillMd("not-a-skill-dir", "ignored: outside the skill folders"),
      "/ws/.skills/node_modules/x/SKILL.md": skillMd("vendored", "ignored: node_modules"),
    });
    const r = await discoverSkills(fs, "/ws");
    expect(r.warnings).toEqual([]);
    expect(r.skills.map((s) => s.name)).toEqual(["deploy", "nested-one", "pdf", "review", "testing"]);
    expect(r.skills.find((s) => s.name === "pdf")).toEqual({
      name: "pdf",
      description: "Read and fill PDF forms",
      body: "Do the thing.",
      location: "/ws/.skills/pdf/SKILL.md",
      dir: "/ws/.skills/pdf",
    });
  });

  it("merges skills from settings first; later duplicates win with a warning naming both locations", async () => {
    const fs = memoryFS({
      "/ws/.skills/a/SKILL.md": skillMd("shared", "from .skills"),
      "/ws/.claude/skills/b/SKILL.md": skillMd("shared", "from .claude"),
    });
    const r = await discoverSkills(fs, "/ws", [{ name: "shared", description: "from settings", body: "b" }, { name: "mine", description: "only in settings", body: "body" }]);
    expect(r.skills.map((s) => [s.name, s.description])).toEqual([["mine", "only in settings"], ["shared", "from .claude"]]);
    expect(r.warnings).toEqual([
      'Duplicate skill name "shared": /ws/.skills/a/SKILL.md replaces settings:skills/shared',
      'Duplicate skill name "shared": /ws/.claude/skills/b/SKILL.md replaces /ws/.skills/a/SKILL.md',
    ]);
  });

  it("skips invalid skills with a warning naming the file and the reason, never crashing", async () => {
    const fs = memoryFS({
      "/ws/.skills/ok/SKILL.md": skillMd("ok", "fine"),
      "/ws/.skills/bad-name/SKILL.md": skillMd("Bad_Name", "x"),
      "/ws/.skills/no-desc/SKILL.md": "---\nname: no-desc\n---\nbody",
      "/ws/.skills/no-fm/SKILL.md": "# no frontmatter",
      "/ws/.skills/broken/SKILL.md": '---\nname: "unclosed\n---\n',
      "/ws/.skills/long/SKILL.md": skillMd("long", "d".repeat(1025)),
      "/ws/.skills/binary/SKILL.md": new Uint8Array([0, 1, 2]),
      "/ws/.skills/locked/SKILL.md": skillMd("locked", "x"),
    });
    fs.unreadable.add("/ws/.skills/locked/SKILL.md");
    const r = await discoverSkills(fs, "/ws", [{ name: "-nope", description: "x", body: "" }]);
    expect(r.skills.map((s) => s.name)).toEqual(["ok"]);
    const w = r.warnings.join("\n");
    expect(r.warnings).toHaveLength(8);
    expect(w).toContain("/ws/.skills/bad-name/SKILL.md: name \"Bad_Name\" must be lower-case");
    expect(w).toContain('/ws/.skills/no-desc/SKILL.md: missing "description"');
    expect(w).toContain("/ws/.skills/no-fm/SKILL.md: invalid frontmatter: missing frontmatter");
    expect(w).toContain("/ws/.skills/broken/SKILL.md: invalid frontmatter");
    expect(w).toContain("/ws/.skills/long/SKILL.md: description is longer than 1024 characters");
    expect(w).toContain("/ws/.skills/binary/SKILL.md: skipped, looks like a binary file");
    expect(w).toContain("/ws/.skills/locked/SKILL.md: could not be read");
    expect(w).toContain("settings:skills/-nope");
  });

  it("works without a workspace", async () => {
    expect((await discoverSkills(undefined, "/ws", [{ name: "g", description: "global", body: "" }])).skills.map((s) => s.name)).toEqual(["g"]);
  });
});

describe("validateSkill", () => {
  it.each([
    ["a", "d", undefined],
    ["pdf-tools-2", "d", undefined],
    ["a".repeat(64), "d", undefined],
    ["a".repeat(65), "d", /longer than 64/],
    ["a--b", "d", /lower-case/],
    ["-a", "d", /lower-case/],
    ["A", "d", /lower-case/],
    ["", "d", /missing "name"/],
    ["a", "", /missing "description"/],
    [3, "d", /missing "name"/],
  ])("%j", (name, desc, expected) => {
    const r = validateSkill(name, desc);
    if (expected === undefined) expect(r).toBeUndefined();
    else expect(r).toMatch(expected);
  });
});

describe("skills in the prompt", () => {
  const skills: Skill[] = [
    { name: "zeta", description: "Last <one> & \"quoted\"", body: "", location: "/ws/.skills/zeta dir/SKILL.md", dir: "/ws/.skills/zeta dir" },
    { name: "alpha", description: "First", body: "", location: "settings:skills/alpha" },
  ];

  it("renders an XML list sorted by name, escaped, with file URLs", () => {
    expect(skillsBlock(skills)).toBe(
      [
        "Skills provide specialized instructions and workflows for specific tasks.",
        "Use the skill tool to load a skill when a task matches its description.",
        "<available_skills>",
        "  <skill>",
        "    <name>alpha</name>",
        "    <description>First</description>",
        "    <location>settings:skills/alpha</location>",
        "  </skill>",
        "  <skill>",
        "    <name>zeta</name>",
        "    <description>Last &lt;one&gt; &amp; &quot;quoted&quot;</description>",
        "    <location>file:///ws/.skills/zeta%20dir/SKILL.md</location>",
        "  </skill>",
        "</available_skills>",
      ].join("\n"),
    );
    expect(skillsBlock([])).toBe("");
  });

  it("renders the short Markdown list for the tool description", () => {
    expect(skillsMarkdown(skills)).toBe('## Available Skills\n- **alpha**: First\n- **zeta**: Last <one> & "quoted"');
  });

  it("hides skills the skill permission denies, and all of them when the tool is disabled", () => {
    const denyZeta = [DEFAULT_RULES, [{ permission: "skill", pattern: "zeta", action: "deny" as const }]];
    expect(visibleSkills(skills, denyZeta).map((s) => s.name)).toEqual(["alpha"]);
    expect(visibleSkills(skills, [DEFAULT_RULES, [{ permission: "skill", pattern: "*", action: "deny" }]])).toEqual([]);
  });
});
