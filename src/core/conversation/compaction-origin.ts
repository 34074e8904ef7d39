import type { CompactionPart, Session } from "../schema";

/** Tool ids of imported histories, as people call them. */
const NAMES: Record<string, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  opencode: "OpenCode",
  "gemini-cli": "Gemini CLI",
};

/** A source tool's name in words ("Claude Code"); an id this table lacks is shown as it is. */
export function originName(tool: string): string {
  return NAMES[tool] ?? tool;
}

/**
 * Which other agent made a compaction, or undefined for tabcode's own: the part's `origin`, else (a session
 * imported before the origin was recorded) the session's source when the compaction request is no newer than
 * the source's own last update — anything tabcode added after the import is newer.
 */
export function compactionOrigin(part: Pick<CompactionPart, "origin">, created: number, source: Pick<NonNullable<Session["source"]>, "tool" | "updated"> | undefined): string | undefined {
  if (part.origin) return part.origin;
  return source && created <= source.updated ? source.tool : undefined;
}
