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
export function compactionOrigin(part: Pick<CompactionPart, "origin">, created: number, source: ImportSource | undefined): string | undefined {
  return part.origin ?? importedBy(created, source);
}

type ImportSource = Pick<NonNullable<Session["source"]>, "tool" | "updated">;

/**
 * The other agent a message of an imported session came from (its tool id), or undefined for tabcode's own: a
 * message no newer than the source's own last update was in the history as imported; anything later tabcode added.
 */
export function importedBy(created: number, source: ImportSource | undefined): string | undefined {
  return source && created <= source.updated ? source.tool : undefined;
}
