import { z } from "../zod";
import { describeThrown } from "../errors";
import type { LLMToolSpec } from "../ports/llm";
import type { Sandbox } from "../ports/sandbox";
import type { Attachment, PermissionRule, Ruleset } from "../schema";
import { type PermissionAsk, PermissionRefused } from "../permission/ask";
import { truncateOutput } from "./truncate";

/** What a tool may use while it runs. */
export interface ToolContext {
  sessionID: string;
  messageID: string;
  callID: string;
  agent: string;
  signal: AbortSignal;
  /** The session's workspace, when a sandbox is available. */
  sandbox?: Sandbox;
  /** Per-session scratch state kept in memory (read times, bash cwd…). */
  state: Map<string, unknown>;
  /** Live updates of the running tool part (title, streamed output). */
  update(patch: { title?: string; metadata?: Record<string, unknown> }): void;
  /** Asks permission; rejects with a PermissionDenied/Rejected error. */
  ask(req: PermissionAsk): Promise<void>;
  /** The configured rulesets in force; the sandbox enforces the path and command rules from them while commands run. */
  rules?: Ruleset[];
  /** Logs a refusal the sandbox made while a command ran (it never went through `ask`). */
  refused?(permission: string, pattern: string, rule?: PermissionRule): void;
  /**
   * The person's own command (the terminal), not the model's: the output comes back whole (no cut for the
   * model, nothing saved in the workspace); the caller decides what to show.
   */
  wholeOutput?: boolean;
}

export interface ToolResult {
  title: string;
  output: string;
  metadata?: Record<string, unknown>;
  attachments?: Attachment[];
}

export interface ToolDefinition<P extends z.ZodMiniType> {
  id: string;
  description: string;
  parameters: P;
  execute(args: z.infer<P>, ctx: ToolContext): Promise<ToolResult>;
  /** Skip central truncation (the tool limits its own output, like `read`). */
  selfTruncating?: boolean;
}

export type ToolOutcome =
  | { ok: true; result: ToolResult; input: Record<string, unknown> }
  | { ok: false; error: string; input: Record<string, unknown>; rejected?: boolean };

/** A tool as the loop sees it. */
export interface Tool {
  id: string;
  description: string;
  spec(): LLMToolSpec;
  /** Validates raw arguments, runs, truncates, and captures errors as values. */
  run(rawInput: unknown, ctx: ToolContext): Promise<ToolOutcome>;
}

function formatIssues(error: z.core.$ZodError): string {
  return error.issues
    .map((i) => `- ${i.path.length ? i.path.join(".") : "(arguments)"}: ${i.message}`)
    .join("\n");
}

function asRecord(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Defines a tool: one file per tool, validated centrally. */
export function defineTool<P extends z.ZodMiniType>(def: ToolDefinition<P>): Tool {
  let cachedSpec: LLMToolSpec | undefined;
  return {
    id: def.id,
    description: def.description,
    spec() {
      if (!cachedSpec) {
        const schema = z.toJSONSchema(def.parameters, { target: "draft-7", io: "input" }) as Record<string, unknown>;
        delete schema.$schema;
        cachedSpec = { name: def.id, description: def.description, inputSchema: schema };
      }
      return cachedSpec;
    },
    async run(rawInput, ctx) {
      const input = asRecord(rawInput);
      const parsed = def.parameters.safeParse(rawInput);
      if (!parsed.success) {
        return {
          ok: false,
          input,
          error: `The ${def.id} tool was called with invalid arguments:\n${formatIssues(parsed.error)}\nPlease rewrite the input so it satisfies the expected schema.`,
        };
      }
      try {
        const result = await def.execute(parsed.data, ctx);
        if (def.selfTruncating || ctx.wholeOutput) return { ok: true, input, result };
        const truncated = await truncateOutput(result.output, ctx);
        return {
          ok: true,
          input,
          result: {
            ...result,
            output: truncated.output,
            metadata: truncated.truncated
              ? { ...result.metadata, truncated: true, outputPath: truncated.path }
              : result.metadata,
          },
        };
      } catch (e) {
        if (e instanceof PermissionRefused) return { ok: false, input, error: e.message, rejected: e.stopsTurn };
        if (ctx.signal.aborted) return { ok: false, input, error: "Tool execution aborted" };
        return { ok: false, input, error: describeThrown(e) };
      }
    },
  };
}
