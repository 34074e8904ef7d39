import type { PermissionAction, PermissionRule, Ruleset } from "../schema";

/**
 * Wildcard match of a whole string: `*` any run, `?` one character.
 * A pattern ending in " *" also matches the bare command (`ls *` matches `ls`).
 */
export function wildcardMatch(text: string, pattern: string): boolean {
  const norm = text.replaceAll("\\", "/");
  if (pattern.endsWith(" *") && norm === pattern.slice(0, -2)) return true;
  let re = "^";
  for (const ch of pattern.replaceAll("\\", "/")) {
    if (ch === "*") re += "[\\s\\S]*";
    else if (ch === "?") re += "[\\s\\S]";
    else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`${re}$`).test(norm);
}

/** The rule that decides, last match wins; undefined when none matches (→ ask). */
export function decidingRule(permission: string, pattern: string, ...rulesets: Ruleset[]): PermissionRule | undefined {
  let found: PermissionRule | undefined;
  for (const rules of rulesets)
    for (const r of rules) if (wildcardMatch(permission, r.permission) && wildcardMatch(pattern, r.pattern)) found = r;
  return found;
}

export function evaluate(permission: string, pattern: string, ...rulesets: Ruleset[]): PermissionAction {
  return decidingRule(permission, pattern, ...rulesets)?.action ?? "ask";
}

/** A tool is removed from the model's list when its last matching rule is `deny *`. */
export function isToolDisabled(permission: string, ...rulesets: Ruleset[]): boolean {
  let last: PermissionRule | undefined;
  for (const rules of rulesets) for (const r of rules) if (wildcardMatch(permission, r.permission)) last = r;
  return last?.pattern === "*" && last.action === "deny";
}

/** Built-in defaults for every agent (spec §6.2). */
export const DEFAULT_RULES: Ruleset = [
  { permission: "*", pattern: "*", action: "allow" },
  { permission: "doom_loop", pattern: "*", action: "ask" },
];
