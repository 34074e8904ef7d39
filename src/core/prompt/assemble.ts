/**
 * System prompt assembly (spec §7.3): `[header, rest]` where the header is
 * the base prompt (or the agent's own) and the rest joins the environment
 * block, the instructions (project and global rules), the agent's mode
 * reminder, the skills block (left out when the skill tool is disabled) and
 * the user message's own system text.
 *
 * Byte stability: what depends on the workspace or the clock (the date, the
 * rules files, the skills) is scanned once per session and memoised, so every
 * request of a session sends the same bytes and the provider's prompt cache
 * keeps hitting. The trade-off: editing AGENTS.md or a skill does not change
 * the prompt of a running session; a new session (or `invalidate(sessionID)`)
 * picks the change up. The rest is a pure function of its inputs (model,
 * agent, rules, user system text).
 */
import { type AgentInfo, agentByName } from "../agents/agents";
import type { Clock } from "../ports/clock";
import type { LLMToolSpec, ModelConfig } from "../ports/llm";
import type { Sandbox } from "../ports/sandbox";
import { discoverRules } from "../rules/discover";
import { pinnedBlock } from "../pins/pins";
import type { Pin, Ruleset } from "../schema";
import { skillsBlock, visibleSkills } from "../skills/block";
import { discoverSkills, type SettingsSkill, type Skill } from "../skills/discover";
import type { Tool } from "../tools/tool";
import { BASE_PROMPT, environmentBlock } from "./system";

/** Settings-level inputs of the prompt (read when a session is first scanned). */
export interface PromptSources {
  /** The user's global rules text. */
  globalRules?: string;
  /** Skills defined in settings. */
  skills?: SettingsSkill[];
}

/** What a session's prompt is built from, frozen at its first assembly. */
export interface SessionScan {
  /** The date shown in the environment block. */
  date: string;
  /** Instruction sections (`Instructions from: …`). */
  instructions: string[];
  rulesFiles: string[];
  /** Every discovered skill (before permission filtering). */
  skills: Skill[];
  warnings: string[];
  /** Whether a workspace was available for the scan (a later one triggers a rescan). */
  withWorkspace: boolean;
}

/** What the UI shows when a session starts. */
export interface StartupReport {
  rulesFiles: string[];
  skills: number;
  warnings: string[];
}

export interface AssembleInput {
  sessionID: string;
  /** Working directory shown when there is no sandbox. */
  directory: string;
  agent: AgentInfo | string;
  model: ModelConfig;
  sandbox?: Sandbox;
  /** The configured rules in effect (e.g. `[rulesFor(agent, global, session)]`); they decide which skills are shown. */
  rules: Ruleset[];
  /** The user message's own system text. */
  userSystem?: string;
  /** The session's pins (`effectivePins`): the goal and constraints sent whatever compaction did. */
  pins?: Pin[];
  /** A preview (a view sizing the next request): an unscanned session is read but its scan is not kept, so files added before the first request still count. */
  preview?: boolean;
}

export function startupReport(scan: SessionScan): StartupReport {
  return { rulesFiles: scan.rulesFiles, skills: scan.skills.length, warnings: scan.warnings };
}

/** Data for the UI's debug view of a request: the system sections and the tool specs. */
export function debugView(system: string[], tools: Array<Tool | LLMToolSpec>): { system: string[]; tools: LLMToolSpec[] } {
  return { system: [...system], tools: tools.map((t) => ("spec" in t ? t.spec() : t)) };
}

export class PromptAssembler {
  private scans = new Map<string, Promise<SessionScan>>();

  constructor(
    private readonly deps: {
      clock: Clock;
      /** Current settings-level inputs; read only when a session is scanned. */
      sources?: () => PromptSources;
    },
  ) {}

  /** The session's scan, computed once (again only after `invalidate`, or when a workspace appears). */
  async scan(sessionID: string, sandbox: Sandbox | undefined, opts: { keep?: boolean } = {}): Promise<SessionScan> {
    const cached = this.scans.get(sessionID);
    if (cached) {
      const s = await cached;
      if (s.withWorkspace || !sandbox) return s;
    }
    if (opts.keep === false) return this.compute(sandbox, cached ? (await cached).date : undefined);
    const fresh = this.compute(sandbox, cached ? (await cached).date : undefined);
    this.scans.set(sessionID, fresh);
    fresh.catch(() => this.scans.delete(sessionID));
    return fresh;
  }

  private async compute(sandbox: Sandbox | undefined, date?: string): Promise<SessionScan> {
    const sources = this.deps.sources?.() ?? {};
    const root = sandbox?.root ?? "/";
    const [rules, skills] = await Promise.all([
      discoverRules(sandbox?.fs, { cwd: root, root, globalRules: sources.globalRules }),
      discoverSkills(sandbox?.fs, root, sources.skills ?? []),
    ]);
    return {
      date: date ?? new Date(this.deps.clock.now()).toDateString(),
      instructions: rules.sections,
      rulesFiles: rules.files,
      skills: skills.skills,
      warnings: [...rules.warnings, ...skills.warnings],
      withWorkspace: sandbox !== undefined,
    };
  }

  /** Forgets a session's scan: its next assembly rereads rules and skills (and the date). */
  invalidate(sessionID: string): void {
    this.scans.delete(sessionID);
  }

  /** The startup report of a session already scanned. */
  async report(sessionID: string): Promise<StartupReport | undefined> {
    const s = this.scans.get(sessionID);
    return s ? startupReport(await s) : undefined;
  }

  /** The session's skills (for the skill tool); the broker still checks the `skill` permission per call. */
  async skills(sessionID: string, sandbox: Sandbox | undefined): Promise<Skill[]> {
    return (await this.scan(sessionID, sandbox)).skills;
  }

  /**
   * Everything after the environment block: instructions, pinned goal and
   * constraints, mode reminder, skills block and user system text. Fits the session loop's
   * `instructions(session, sandbox)` hook as it is.
   */
  async sections(input: AssembleInput): Promise<string[]> {
    const scan = await this.scan(input.sessionID, input.sandbox, { keep: !input.preview });
    const agent = typeof input.agent === "string" ? agentByName(input.agent) : input.agent;
    return [
      ...scan.instructions,
      pinnedBlock(input.pins ?? []),
      agent.reminder,
      skillsBlock(visibleSkills(scan.skills, input.rules)),
      input.userSystem?.trim() ?? "",
    ].filter((s) => s.length > 0);
  }

  /** The full system prompt as `[header, rest]`. */
  async assemble(input: AssembleInput): Promise<[string, string]> {
    const scan = await this.scan(input.sessionID, input.sandbox, { keep: !input.preview });
    const agent = typeof input.agent === "string" ? agentByName(input.agent) : input.agent;
    const env = environmentBlock({
      model: input.model,
      directory: input.sandbox?.root ?? input.directory,
      sandbox: input.sandbox ? `${input.sandbox.kind} (in-browser)` : "none",
      date: scan.date,
    });
    return [agent.prompt ?? BASE_PROMPT, [env, ...(await this.sections(input))].join("\n\n")];
  }
}
