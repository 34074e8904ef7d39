/** What tools ask the permission broker, and how a refusal reaches them. */

/** A permission question a tool asks before acting. Resolves when allowed, rejects when refused. */
export interface PermissionAsk {
  /** Permission key: `bash`, `edit`, `read`… */
  permission: string;
  /** What exactly is asked for (commands, paths). */
  patterns: string[];
  /** Patterns stored when the user answers "always". */
  always: string[];
  metadata?: Record<string, unknown>;
  /** Why the user must be asked even if rules allow (e.g. a shell command that cannot be analysed); a deny still wins. */
  mustAsk?: string;
}

/** Thrown by `ctx.ask` when a rule or the user refuses. */
export class PermissionRefused extends Error {
  override readonly name = "PermissionRefused";
  constructor(
    message: string,
    /** True when the turn must stop (plain reject); false when the model gets feedback and goes on. */
    readonly stopsTurn: boolean,
  ) {
    super(message);
  }
}
