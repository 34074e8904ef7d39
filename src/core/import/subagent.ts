import type { Session } from "../schema";
import type { ToolPart } from "../schema";

/** The tools that hand work to a subagent: OpenCode's `task`, Claude Code's `Task` (renamed `Agent` in later versions). */
const SUBAGENT_TOOLS = new Set(["task", "agent"]);

export function isSubagentTool(tool: string): boolean {
  return SUBAGENT_TOOLS.has(tool.toLowerCase());
}

/**
 * The id, in the source, of the session a subagent call ran in, when the call says: OpenCode records it
 * as the task's `metadata.sessionId`; Claude Code's Task result names the subagent (`agentId`), whose
 * transcript was imported as `<the session's id>:agent-<agentId>` (see claude-code.ts).
 */
export function subagentSourceID(session: Pick<Session, "id" | "source">, part: ToolPart): string | undefined {
  if (!isSubagentTool(part.tool)) return undefined;
  const s = part.state;
  if (s.status !== "completed" && s.status !== "error") return undefined;
  const meta = s.metadata ?? {};
  if (typeof meta.sessionId === "string" && meta.sessionId) return meta.sessionId;
  const result = meta.result;
  const agent = typeof result === "object" && result !== null && "agentId" in result ? result.agentId : undefined;
  if (session.source?.tool === "claude-code" && typeof agent === "string" && agent) return `${session.source.id}:agent-${agent}`;
  return undefined;
}

/**
 * The session here that a subagent call ran in: one imported from the same tool under that source id, or,
 * for a session with no source (an OpenCode export read by Import file, whose ids are kept), that id.
 */
export function subagentSession<S extends Pick<Session, "id" | "source">>(session: Pick<Session, "id" | "source">, part: ToolPart, sessions: readonly S[]): S | undefined {
  const src = subagentSourceID(session, part);
  if (src === undefined) return undefined;
  const tool = session.source?.tool;
  return sessions.find((c) => c.id !== session.id && (tool === undefined ? c.id === src : c.source?.tool === tool && c.source.id === src));
}
