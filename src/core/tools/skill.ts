import { z } from "../zod";
import type { SandboxFS } from "../ports/sandbox";
import type { Skill } from "../skills/discover";
import { escapeXml, locationUrl, skillsMarkdown } from "../skills/block";
import { defineTool, type Tool, type ToolContext } from "./tool";

/** How many files of a skill's folder the tool lists. */
export const SKILL_FILES_LIMIT = 10;

const parameters = z.object({
  name: z.string().check(z.minLength(1), z.describe("The name of the skill to load, from the available skills list")),
});

/** Up to `limit` files below a skill's folder (breadth-first, sorted), without its SKILL.md. */
async function skillFiles(fs: SandboxFS, dir: string, limit: number): Promise<string[]> {
  const out: string[] = [];
  const queue = [dir];
  let visited = 0;
  for (let d = queue.shift(); d !== undefined && out.length < limit && visited < 1000; d = queue.shift()) {
    for (const e of await fs.list(d).catch(() => [])) {
      visited++;
      if (e.type === "directory" && e.name !== "node_modules" && e.name !== ".git") queue.push(e.path);
      else if (e.type === "file" && e.path !== `${dir}/SKILL.md` && out.length < limit) out.push(e.path);
    }
  }
  return out;
}

function description(listed: Skill[] | undefined): string {
  const head = [
    "Load a skill: specialized instructions and workflows for a specific kind of task.",
    "When a task matches a skill's description, call this tool with the skill's name before starting; follow the instructions it returns.",
  ];
  const list = listed ? skillsMarkdown(listed) : "The available skills are listed in the system prompt under <available_skills>.";
  return [...head, "", list].join("\n");
}

/**
 * The `skill` tool (spec §7.2). `getSkills` returns the skills usable in the
 * calling session (discovered per session, e.g. by the prompt assembler);
 * `listed`, when given, is written into the tool description as a short list
 * (leave it out to keep the description fixed and point at the system prompt).
 */
export function createSkillTool(getSkills: (ctx: ToolContext) => Promise<Skill[]>, listed?: Skill[]): Tool {
  return defineTool({
    id: "skill",
    description: description(listed),
    parameters,
    async execute({ name }, ctx) {
      const skills = await getSkills(ctx);
      const skill = skills.find((s) => s.name === name);
      if (!skill) {
        const names = skills.map((s) => s.name).sort();
        throw new Error(`Unknown skill "${name}". Available skills: ${names.length ? names.join(", ") : "none"}.`);
      }
      await ctx.ask({ permission: "skill", patterns: [skill.name], always: [skill.name], metadata: { location: skill.location } });
      const files = skill.dir && ctx.sandbox ? await skillFiles(ctx.sandbox.fs, skill.dir, SKILL_FILES_LIMIT) : [];
      const base = skill.dir ? locationUrl(skill.dir) : "(none: this skill comes from the settings and has no folder)";
      const output = [
        `<skill_content name="${escapeXml(skill.name)}">`,
        `# Skill: ${skill.name}`,
        "",
        skill.body,
        "",
        `Base directory for this skill: ${base}`,
        "Relative paths in this skill (scripts/, reference/…) are relative to this base directory.",
        "",
        "<skill_files>",
        ...files.map((f) => `<file>${escapeXml(f)}</file>`),
        "</skill_files>",
        "</skill_content>",
      ].join("\n");
      return { title: `Loaded skill: ${skill.name}`, output, metadata: { name: skill.name, dir: skill.dir, files } };
    },
  });
}
