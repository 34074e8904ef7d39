/**
 * A `ToolContext` for tool tests: records permission asks and live updates,
 * allows everything unless `deny` says otherwise. Never imported by app code.
 */
import type { Sandbox } from "../core/ports/sandbox";
import { type PermissionAsk, PermissionRefused } from "../core/permission/ask";
import type { Tool, ToolContext, ToolResult } from "../core/tools/tool";

export interface RecordingToolContext extends ToolContext {
  asks: PermissionAsk[];
  updates: Array<{ title?: string; metadata?: Record<string, unknown> }>;
}

export interface ToolContextOptions {
  sandbox?: Sandbox;
  signal?: AbortSignal;
  /** Shared scratch state (pass the same map to simulate one session across calls). */
  state?: Map<string, unknown>;
  /** Permissions to refuse. */
  deny?: string[];
}

export function makeToolContext(opts: ToolContextOptions = {}): RecordingToolContext {
  const asks: PermissionAsk[] = [];
  const updates: RecordingToolContext["updates"] = [];
  return {
    sessionID: "ses_test",
    messageID: "msg_test",
    callID: "call_test",
    agent: "build",
    signal: opts.signal ?? new AbortController().signal,
    sandbox: opts.sandbox,
    state: opts.state ?? new Map(),
    asks,
    updates,
    update(patch) {
      updates.push(patch);
    },
    async ask(req) {
      asks.push(req);
      if (opts.deny?.includes(req.permission)) throw new PermissionRefused(`Permission ${req.permission} refused`, true);
    },
  };
}

/** Runs a tool and returns its result; throws with the tool's error when it failed. */
export async function runTool(tool: Tool, args: unknown, ctx: ToolContext): Promise<ToolResult> {
  const r = await tool.run(args, ctx);
  if (!r.ok) throw new Error(`Tool ${tool.id} failed: ${r.error}`);
  return r.result;
}

/** Runs a tool that is expected to fail; returns its error text. */
export async function runToolError(tool: Tool, args: unknown, ctx: ToolContext): Promise<string> {
  const r = await tool.run(args, ctx);
  if (r.ok) throw new Error(`Tool ${tool.id} unexpectedly succeeded: ${r.result.output}`);
  return r.error;
}
