/**
 * Wires rules, skills, agents and permissions into the session service: the
 * system prompt (byte-stable per session), the tools each agent may use, and
 * the rulesets the permission broker evaluates.
 */
import { rulesFor, toolsFor } from "../core/agents/agents";
import type { Clock } from "../core/ports/clock";
import type { PromptAssembler } from "../core/prompt/assemble";
import type { Ruleset, Session } from "../core/schema";
import type { SystemInput } from "../core/session/loop";
import type { Settings } from "../core/settings";
import { GOAL_DONE_TOOL } from "../core/tools/goal-done-input";
import type { Tool } from "../core/tools/tool";

/**
 * The tool implementations (with glob matching and the diff engine) are not
 * needed for the first screen: they load on the first request, or earlier
 * through `preload` when the app is idle after start-up.
 */
async function loadTools(skills: () => Promise<PromptAssembler>): Promise<Tool[]> {
  const [{ workspaceTools }, { createSkillTool }, { todoWriteTool }, { goalDoneTool }] = await Promise.all([
    import("../core/tools/index"),
    import("../core/tools/skill"),
    import("../core/tools/todo"),
    import("../core/tools/goal-done"),
  ]);
  const skillTool = createSkillTool(async (ctx) => (await skills()).skills(ctx.sessionID, ctx.sandbox));
  return [todoWriteTool, ...workspaceTools, skillTool, goalDoneTool];
}

function loadSystemModules(assembler: () => Promise<PromptAssembler>) {
  return Promise.all([assembler(), import("../core/pins/pins"), import("../core/rules/nested")]);
}

export class PromptWiring {
  /** The prompt assembler (rules and skills discovery), loaded on first use: the first screen does not need it. */
  private assemblerP: Promise<PromptAssembler> | undefined;
  /** Session rules as of each session's last step (the broker needs them synchronously). */
  private sessionRules = new Map<string, Ruleset>();
  private allTools: Promise<Tool[]> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly settings: () => Settings,
    private readonly agentOf: (sessionID: string) => string | undefined,
  ) {}

  assembler = (): Promise<PromptAssembler> => {
    this.assemblerP ??= import("../core/prompt/assemble").then(
      ({ PromptAssembler }) =>
        new PromptAssembler({ clock: this.clock, sources: () => ({ globalRules: this.settings().globalRules, skills: this.settings().skills }) }),
      (e: unknown) => {
        this.assemblerP = undefined;
        throw e;
      },
    );
    return this.assemblerP;
  };

  /** Loads the tools and what the system prompt is built with (once; a failed load is tried again next time). */
  preload = (): Promise<Tool[]> => {
    void this.systemModules().catch(() => undefined);
    this.allTools ??= loadTools(this.assembler).catch((e: unknown) => {
      this.allTools = undefined;
      throw e;
    });
    return this.allTools;
  };

  /** The rulesets in force for a session: defaults → agent → global settings → session. */
  rules = (sessionID: string): Ruleset[] => [rulesFor(this.agentOf(sessionID) ?? "build", this.settings().permissions, this.sessionRules.get(sessionID) ?? [])];

  tools = async (agent: string, session: Session): Promise<Tool[]> => {
    this.sessionRules.set(session.id, session.permission ?? []);
    // goal_done only while the session has an active /goal.
    const all = await this.preload();
    const offered = session.goal?.state === "active" ? all : all.filter((t) => t.id !== GOAL_DONE_TOOL);
    return toolsFor(agent, offered, [this.settings().permissions, session.permission ?? []]);
  };

  private modules: ReturnType<typeof loadSystemModules> | undefined;

  /** Loaded once and kept: an `import()` of a module already loaded still resolves a task later, behind whatever the page queued. */
  private systemModules() {
    if (this.modules) return this.modules;
    const loading = loadSystemModules(this.assembler);
    this.modules = loading;
    // A failed load is tried again next time.
    loading.catch(() => {
      if (this.modules === loading) this.modules = undefined;
    });
    return loading;
  }

  system = async (input: SystemInput): Promise<string[]> => {
    const { session, agent } = input;
    const [assembler, { effectivePins }, { loadedRules }] = await this.systemModules();
    const sections = await assembler.assemble({
      sessionID: session.id,
      directory: session.directory,
      agent,
      model: input.model,
      sandbox: input.sandbox,
      rules: [rulesFor(agent, this.settings().permissions, session.permission ?? [])],
      userSystem: input.userSystem,
      pins: effectivePins(session.pins, input.history ?? []),
      preview: input.preview,
    });
    // Instruction files already in the prompt are not repeated by `read`.
    const report = await assembler.report(session.id);
    loadedRules(input.toolState, report?.rulesFiles ?? []);
    return sections;
  };
}
