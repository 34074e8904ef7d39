/**
 * Wires rules, skills, agents and permissions into the session service: the
 * system prompt (byte-stable per session), the tools each agent may use, and
 * the rulesets the permission broker evaluates.
 */
import { rulesFor, toolsFor } from "../core/agents/agents";
import type { Clock } from "../core/ports/clock";
import { effectivePins } from "../core/pins/pins";
import { PromptAssembler } from "../core/prompt/assemble";
import { loadedRules } from "../core/rules/nested";
import type { Ruleset, Session } from "../core/schema";
import type { SystemInput } from "../core/session/loop";
import type { Settings } from "../core/settings";
import { workspaceTools } from "../core/tools/index";
import { createSkillTool } from "../core/tools/skill";
import { todoWriteTool } from "../core/tools/todo";
import type { Tool } from "../core/tools/tool";

export class PromptWiring {
  readonly assembler: PromptAssembler;
  /** Session rules as of each session's last step (the broker needs them synchronously). */
  private sessionRules = new Map<string, Ruleset>();
  private readonly allTools: Tool[];

  constructor(
    clock: Clock,
    private readonly settings: () => Settings,
    private readonly agentOf: (sessionID: string) => string | undefined,
  ) {
    this.assembler = new PromptAssembler({ clock, sources: () => ({ globalRules: settings().globalRules, skills: settings().skills }) });
    const skillTool = createSkillTool((ctx) => this.assembler.skills(ctx.sessionID, ctx.sandbox));
    this.allTools = [todoWriteTool, ...workspaceTools, skillTool];
  }

  /** The rulesets in force for a session: defaults → agent → global settings → session. */
  rules = (sessionID: string): Ruleset[] => [rulesFor(this.agentOf(sessionID) ?? "build", this.settings().permissions, this.sessionRules.get(sessionID) ?? [])];

  tools = (agent: string, session: Session): Tool[] => {
    this.sessionRules.set(session.id, session.permission ?? []);
    return toolsFor(agent, this.allTools, [this.settings().permissions, session.permission ?? []]);
  };

  system = async (input: SystemInput): Promise<string[]> => {
    const { session, agent } = input;
    const sections = await this.assembler.assemble({
      sessionID: session.id,
      directory: session.directory,
      agent,
      model: input.model,
      sandbox: input.sandbox,
      rules: [rulesFor(agent, this.settings().permissions, session.permission ?? [])],
      userSystem: input.userSystem,
      pins: effectivePins(session.pins, input.history ?? []),
    });
    // Instruction files already in the prompt are not repeated by `read`.
    const report = await this.assembler.report(session.id);
    loadedRules(input.toolState, report?.rulesFiles ?? []);
    return sections;
  };
}
