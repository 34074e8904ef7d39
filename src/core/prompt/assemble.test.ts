import { describe, expect, it } from "vitest";
import { z } from "../zod";
import { memoryFS } from "../../testing/memory-fs";
import { PLAN_AGENT, rulesFor } from "../agents/agents";
import type { Clock } from "../ports/clock";
import type { ModelConfig } from "../ports/llm";
import type { Sandbox, SandboxFS } from "../ports/sandbox";
import { defineTool } from "../tools/tool";
import { type AssembleInput, debugView, PromptAssembler } from "./assemble";
import { BASE_PROMPT } from "./system";

const model: ModelConfig = { provider: "openai", modelID: "gpt-5", contextWindow: 400_000, maxOutputTokens: 128_000, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };

function sandbox(fs: SandboxFS): Sandbox {
  const unused = () => Promise.reject(new Error("unused"));
  return { kind: "local", root: "/ws", fs, exec: unused, snapshot: unused, restore: unused, changed: unused, readAt: unused };
}

function movingClock(start = Date.UTC(2025, 0, 15, 12)) {
  let t = start;
  const clock: Clock = { now: () => t, sleep: async () => undefined };
  return { clock, advance: (ms: number) => (t += ms) };
}

function setup(files: Record<string, string> = {}) {
  const fs = memoryFS({
    "/ws/AGENTS.md": "Use tabs.",
    "/ws/.skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Fill PDF forms\n---\nbody",
    ...files,
  });
  const time = movingClock();
  let globalRules = "Be brief.";
  const assembler = new PromptAssembler({ clock: time.clock, sources: () => ({ globalRules, skills: [{ name: "tone", description: "House tone", body: "x" }] }) });
  const input = (over: Partial<AssembleInput> = {}): AssembleInput => ({
    sessionID: "ses_1",
    directory: "/ws",
    agent: "build",
    model,
    sandbox: sandbox(fs),
    rules: [rulesFor("build")],
    ...over,
  });
  return { fs, time, assembler, input, setGlobal: (g: string) => (globalRules = g) };
}

describe("PromptAssembler", () => {
  it("a preview (a view sizing the next request) does not fix the session's rules: files added before the first request count", async () => {
    const { assembler, input, fs } = setup();
    const [, before] = await assembler.assemble(input({ preview: true }));
    expect(before).not.toContain("<name>notes</name>");
    await fs.writeFile("/ws/.skills/notes/SKILL.md", "---\nname: notes\ndescription: Write release notes\n---\nbody");
    const [, first] = await assembler.assemble(input());
    expect(first).toContain("<name>notes</name>");
    // From the first real request on, the prompt stays byte-stable (until invalidate).
    await fs.writeFile("/ws/.skills/later/SKILL.md", "---\nname: later\ndescription: Added later\n---\nbody");
    const [, again] = await assembler.assemble(input({ preview: true }));
    expect(again).toBe(first);
  });

  it("builds [header, rest] in the documented order", async () => {
    const { assembler, input } = setup();
    const [header, rest] = await assembler.assemble(input({ userSystem: "Answer in JSON." }));
    expect(header).toBe(BASE_PROMPT);
    const order = ["You are powered by the model gpt-5", "<env>", "Instructions from: /ws/AGENTS.md\nUse tabs.", "Instructions from: tabcode settings (global rules)\nBe brief.", "You are in build mode", "<available_skills>", "Answer in JSON."];
    const at = order.map((s) => rest.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(rest).toContain("Working directory: /ws");
    expect(rest).toContain("Today's date: Wed Jan 15 2025");
    expect(rest).toContain("<name>pdf</name>");
    expect(rest).toContain("<name>tone</name>");
  });

  it("is byte-stable within a session even when the clock moves to another day", async () => {
    const { assembler, input, time } = setup();
    const first = await assembler.assemble(input());
    time.advance(3 * 24 * 3600 * 1000);
    const second = await assembler.assemble(input());
    expect(second).toEqual(first);
    expect(second.join("\u0000")).toBe(first.join("\u0000"));
  });

  it("does not pick up edited rules, skills or settings until a new session or invalidate()", async () => {
    const { assembler, input, fs, setGlobal, time } = setup();
    const before = await assembler.assemble(input());
    await fs.writeFile("/ws/AGENTS.md", "Use spaces.");
    await fs.writeFile("/ws/.skills/new/SKILL.md", "---\nname: newer\ndescription: New\n---\n");
    setGlobal("Be verbose.");
    time.advance(24 * 3600 * 1000);
    expect(await assembler.assemble(input())).toEqual(before);

    const other = (await assembler.assemble(input({ sessionID: "ses_2" })))[1];
    expect(other).toContain("Use spaces.");
    expect(other).toContain("<name>newer</name>");
    expect(other).toContain("Be verbose.");
    expect(other).toContain("Thu Jan 16 2025");

    assembler.invalidate("ses_1");
    expect((await assembler.assemble(input()))[1]).toContain("Use spaces.");
  });

  it("rescans once a workspace becomes available, keeping the session's date", async () => {
    const { assembler, input, time } = setup();
    const early = (await assembler.assemble(input({ sandbox: undefined })))[1];
    expect(early).not.toContain("Use tabs.");
    expect(early).toContain("Working directory: /ws");
    time.advance(24 * 3600 * 1000);
    const later = (await assembler.assemble(input()))[1];
    expect(later).toContain("Use tabs.");
    expect(later).toContain("Wed Jan 15 2025");
  });

  it("adds the plan reminder for the plan agent and uses an agent's own prompt as the header", async () => {
    const { assembler, input } = setup();
    const [, rest] = await assembler.assemble(input({ agent: "plan", rules: [rulesFor("plan")] }));
    expect(rest).toContain("You are in plan mode: read-only");
    const [header] = await assembler.assemble(input({ agent: { ...PLAN_AGENT, prompt: "Custom header." } }));
    expect(header).toBe("Custom header.");
  });

  it("omits the skills block when the skill tool is denied, and hides denied skills", async () => {
    const { assembler, input } = setup();
    const off = [rulesFor("build", [{ permission: "skill", pattern: "*", action: "deny" }])];
    expect((await assembler.assemble(input({ rules: off })))[1]).not.toContain("available_skills");
    const one = [rulesFor("build", [{ permission: "skill", pattern: "pdf", action: "deny" }])];
    const rest = (await assembler.assemble(input({ rules: one })))[1];
    expect(rest).toContain("<name>tone</name>");
    expect(rest).not.toContain("<name>pdf</name>");
  });

  it("offers the sections for the loop's instructions hook, the session's skills and a startup report", async () => {
    const { assembler, input } = setup({ "/ws/.skills/bad/SKILL.md": "no frontmatter" });
    expect(await assembler.report("ses_1")).toBeUndefined();
    const sections = await assembler.sections(input());
    expect(sections[0]).toBe("Instructions from: /ws/AGENTS.md\nUse tabs.");
    expect((await assembler.skills("ses_1", input().sandbox)).map((s) => s.name)).toEqual(["pdf", "tone"]);
    expect(await assembler.report("ses_1")).toEqual({
      rulesFiles: ["/ws/AGENTS.md"],
      skills: 2,
      warnings: ["Skipped skill /ws/.skills/bad/SKILL.md: invalid frontmatter: missing frontmatter (the file must start with ---)"],
    });
  });
});

/** `inner` answered the way a sandbox in a Worker answers: calls wait in a queue and each turn answers all of them at once. `trips` counts the turns. */
function workerLikeFS(inner: SandboxFS): { fs: SandboxFS; trips: () => number } {
  let queue: (() => void)[] = [];
  let trips = 0;
  const turn = () => {
    trips += 1;
    const now = queue;
    queue = [];
    for (const answer of now) answer();
  };
  const fs = new Proxy(inner, {
    get(target, key) {
      const real = Reflect.get(target, key) as unknown;
      if (typeof real !== "function") return real;
      return (...args: unknown[]) =>
        new Promise((resolve, reject) => {
          if (queue.length === 0) setTimeout(turn, 0);
          queue.push(() => (real as (...a: unknown[]) => Promise<unknown>).apply(target, args).then(resolve, reject));
        });
    },
  });
  return { fs, trips: () => trips };
}

describe("the session's scan of its workspace", () => {
  it("reads a rules file found by its look without looking at it again: two round trips for a workspace with AGENTS.md", async () => {
    const rules = workerLikeFS(memoryFS({ "/ws/AGENTS.md": "Use tabs." }));
    const scan = await new PromptAssembler({ clock: movingClock().clock }).scan("ses_1", sandbox(rules.fs));
    expect(scan.instructions).toEqual(["Instructions from: /ws/AGENTS.md\nUse tabs."]);
    expect(rules.trips()).toBe(2);
  });

  it("asks about every rules file and skill folder at once: one round trip to the sandbox for a workspace that has none", async () => {
    const empty = workerLikeFS(memoryFS({ "/ws/src/a.ts": "x" }));
    const assembler = new PromptAssembler({ clock: movingClock().clock });
    const scan = await assembler.scan("ses_1", sandbox(empty.fs));
    expect(scan.instructions).toEqual([]);
    expect(scan.skills).toEqual([]);
    // Four rules names (AGENTS.md, CLAUDE.md, .cursorrules, AGENTS.local.md) and five skill folders: nine looks, one turn.
    expect(empty.trips()).toBe(1);
  });

  it("finds the same rules and skills in as many round trips as the deepest chain of reads, not one per path", async () => {
    const files = {
      "/ws/AGENTS.md": "Use tabs.",
      "/ws/CLAUDE.md": "hidden by AGENTS.md",
      "/ws/AGENTS.local.md": "Mine.",
      "/ws/.skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Fill PDF forms\n---\nbody",
      "/ws/.claude/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Later folder wins\n---\nother",
      "/ws/.agents/skills/tone/SKILL.md": "---\nname: tone\ndescription: House tone\n---\nx",
    };
    const direct = await new PromptAssembler({ clock: movingClock().clock }).scan("ses_1", sandbox(memoryFS(files)));
    const batched = workerLikeFS(memoryFS(files));
    const scan = await new PromptAssembler({ clock: movingClock().clock }).scan("ses_1", sandbox(batched.fs));
    expect(scan).toEqual(direct);
    expect(scan.rulesFiles).toEqual(["/ws/AGENTS.md", "/ws/AGENTS.local.md"]);
    expect(scan.skills.map((k) => `${k.name}: ${k.description}`)).toEqual(["pdf: Later folder wins", "tone: House tone"]);
    expect(scan.warnings).toEqual(['Duplicate skill name "pdf": /ws/.claude/skills/pdf/SKILL.md replaces /ws/.skills/pdf/SKILL.md']);
    // The longest chain: the folder's stat, two lists down to SKILL.md and its read (the listing gave its size).
    expect(batched.trips()).toBe(4);
  });
});

describe("debugView", () => {
  it("returns the system sections and the tool specs", () => {
    const tool = defineTool({ id: "t", description: "d", parameters: z.object({ a: z.string() }), execute: async () => ({ title: "", output: "" }) });
    const view = debugView(["h", "r"], [tool, { name: "raw", description: "x", inputSchema: {} }]);
    expect(view.system).toEqual(["h", "r"]);
    expect(view.tools.map((t) => t.name)).toEqual(["t", "raw"]);
    expect(view.tools[0]?.inputSchema).toMatchObject({ properties: { a: { type: "string" } } });
  });
});
