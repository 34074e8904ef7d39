/**
 * How skills are shown to the model (spec §7.2, progressive disclosure): the
 * system prompt lists every usable skill as XML; the skill tool's description
 * carries a shorter Markdown list; the body is loaded only on demand.
 */
import { evaluate, isToolDisabled } from "../permission/evaluate";
import type { Ruleset } from "../schema";
import type { Skill } from "./discover";

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] ?? c);
}

/** A `file://` URL for a sandbox path; other locations (settings) are returned as they are. */
export function locationUrl(location: string): string {
  return location.startsWith("/") ? `file://${encodeURI(location)}` : location;
}

/** Skills the `skill` permission does not deny (none when the skill tool is disabled). */
export function visibleSkills(skills: Skill[], rulesets: Ruleset[]): Skill[] {
  if (isToolDisabled("skill", ...rulesets)) return [];
  return skills.filter((s) => evaluate("skill", s.name, ...rulesets) !== "deny");
}

function byName(skills: Skill[]): Skill[] {
  return [...skills].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The system prompt block: a two-line preamble and the `<available_skills>` list; "" when there are none. */
export function skillsBlock(skills: Skill[]): string {
  if (skills.length === 0) return "";
  const items = byName(skills).map((s) =>
    [
      "  <skill>",
      `    <name>${escapeXml(s.name)}</name>`,
      `    <description>${escapeXml(s.description)}</description>`,
      `    <location>${escapeXml(locationUrl(s.location))}</location>`,
      "  </skill>",
    ].join("\n"),
  );
  return [
    "Skills provide specialized instructions and workflows for specific tasks.",
    "Use the skill tool to load a skill when a task matches its description.",
    "<available_skills>",
    ...items,
    "</available_skills>",
  ].join("\n");
}

/** The short Markdown list used in the skill tool's description. */
export function skillsMarkdown(skills: Skill[]): string {
  if (skills.length === 0) return "## Available Skills\nNo skills are available.";
  return ["## Available Skills", ...byName(skills).map((s) => `- **${s.name}**: ${s.description.replace(/\s+/g, " ")}`)].join("\n");
}
