/**
 * "Start fresh from here": the brief a child session starts from — the goal,
 * the constraints in force, the decisions of the latest summary, the files
 * touched, and links back to the user's messages in the parent session.
 * Pure; the user edits it before anything is sent.
 */
import { previousSummary } from "../compaction/summarize";
import { toolLog } from "../compaction/transcript";
import type { MessageWithParts, Pin, Session } from "../schema";
import { activePins, userText } from "./pins";

/** A `## Heading` section of a summary body (empty when missing or "(none)"). */
export function summarySection(body: string, heading: string): string {
  const lines = body.split("\n");
  const at = lines.findIndex((l) => /^#{1,6}\s/.test(l) && l.replace(/^#+\s*/, "").trim().toLowerCase() === heading.toLowerCase());
  if (at < 0) return "";
  const out: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (/^#{1,2}\s/.test(l)) break;
    out.push(l);
  }
  const text = out.join("\n").trim();
  return text === "(none)" ? "" : text;
}

const oneLine = (t: string, max: number) => {
  const s = t.replace(/\s+/g, " ").trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

/**
 * The brief for a fresh session started at message `upTo` of the parent: `history` is the conversation up to
 * it as it reads (`upToAsRead`: a summary read before a kept turn is in it, though its id sorts later).
 */
export function freshBrief(parent: Pick<Session, "id" | "title">, history: MessageWithParts[], upTo: string, pins: Pin[]): string {
  const live = activePins(pins);
  const goal = live.find((p) => p.kind === "goal")?.text;
  const rules = live.filter((p) => p.kind === "constraint").map((p) => `- ${p.text}`);
  const summary = previousSummary(history);
  const decisions = summary ? summarySection(summary.body, "Key Decisions") : "";
  const files = [...toolLog(history).files].slice(-40).map(([path, actions]) => `- ${path} (${[...actions].join(", ")})`);
  const links = history
    .filter((m) => m.info.role === "user" && userText(m))
    .slice(-12)
    .map((m) => `- [${oneLine(userText(m), 70).replace(/[[\]]/g, "")}](#/s/${parent.id}/m/${m.info.id})`);
  return [
    `Continuing from the session [“${oneLine(parent.title, 80).replace(/[[\]]/g, "")}”](#/s/${parent.id}/m/${upTo}), with a fresh context.`,
    "",
    "## Goal",
    goal ?? "(none)",
    "",
    "## Constraints",
    ...(rules.length ? rules : ["(none)"]),
    "",
    "## Key decisions",
    decisions || "(none)",
    "",
    "## Files",
    ...(files.length ? files : ["(none)"]),
    "",
    "## Earlier messages",
    ...(links.length ? links : ["(none)"]),
  ].join("\n");
}
