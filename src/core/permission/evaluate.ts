import type { PermissionAction, PermissionRule, Ruleset } from "../schema";

/**
 * Wildcard match of a whole string: `*` any run (slashes included), `?` one
 * character, backslashes compare as `/`. A pattern ending in " *" also matches
 * the bare command (`ls *` matches `ls`). Linear-time (no regular expression),
 * so long commands and many-star patterns cannot blow up.
 */
export function wildcardMatch(text: string, pattern: string): boolean {
  const t = text.replaceAll("\\", "/");
  const p = pattern.replaceAll("\\", "/");
  if (p.endsWith(" *") && t === p.slice(0, -2)) return true;
  let ti = 0;
  let pi = 0;
  let star = -1;
  let mark = 0;
  while (ti < t.length) {
    const pc = p[pi];
    if (pc === "*") {
      star = pi++;
      mark = ti;
    } else if (pc !== undefined && (pc === "?" || pc === t[ti])) {
      pi++;
      ti++;
    } else if (star !== -1) {
      pi = star + 1;
      ti = ++mark;
    } else return false;
  }
  while (p[pi] === "*") pi++;
  return pi === p.length;
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

/** The outcome for one pattern, and what decided it. */
export interface Verdict {
  action: PermissionAction;
  /** The deciding rule; undefined when nothing matched (the default, ask). */
  rule?: PermissionRule;
  /** True when a user's "always" approval decided. */
  approved?: boolean;
}

/**
 * Evaluates configured rules (defaults, agent, user, session: last match wins)
 * and the user's "always" approvals. A configured deny is unbeatable: when the
 * configured rules deny, no approval can turn that into allow. Otherwise a
 * matching approval decides, else the configured result (default ask).
 */
export function evaluateWithApprovals(permission: string, pattern: string, configured: Ruleset[], approved: Ruleset = []): Verdict {
  const rule = decidingRule(permission, pattern, ...configured);
  if (rule?.action === "deny") return { action: "deny", rule };
  const approval = decidingRule(permission, pattern, approved);
  if (approval && approval.action !== "deny") return { action: approval.action, rule: approval, approved: true };
  return { action: rule?.action ?? "ask", rule };
}

/** A permission question reduced to what evaluation needs. */
export interface AskInput {
  permission: string;
  patterns: string[];
  /** Ask the user even when rules allow (a deny still wins). */
  mustAsk?: string;
}

/** The decision for a whole question. */
export interface AskDecision {
  /** deny if any pattern is denied; ask if any pattern asks (or `mustAsk`); else allow. */
  action: PermissionAction;
  /** The first denied pattern and its rule. */
  denied?: { pattern: string; rule?: PermissionRule };
  /** Patterns the user has to answer. */
  asking: string[];
  verdicts: Array<{ pattern: string } & Verdict>;
}

export function decideAsk(req: AskInput, configured: Ruleset[], approved: Ruleset = []): AskDecision {
  const verdicts = req.patterns.map((pattern) => ({ pattern, ...evaluateWithApprovals(req.permission, pattern, configured, approved) }));
  const denied = verdicts.find((v) => v.action === "deny");
  if (denied) return { action: "deny", denied: { pattern: denied.pattern, rule: denied.rule }, asking: [], verdicts };
  const asking = req.mustAsk ? [...req.patterns] : verdicts.filter((v) => v.action === "ask").map((v) => v.pattern);
  return { action: asking.length || req.mustAsk ? "ask" : "allow", asking, verdicts };
}

/** A tool is removed from the model's list when its last matching rule is `deny *`. */
export function isToolDisabled(permission: string, ...rulesets: Ruleset[]): boolean {
  let last: PermissionRule | undefined;
  for (const rules of rulesets) for (const r of rules) if (wildcardMatch(permission, r.permission)) last = r;
  return last?.pattern === "*" && last.action === "deny";
}

/**
 * Built-in defaults for every agent (spec §6.2): everything allowed, repeated
 * identical tool calls and paths outside the workspace asked, the question and
 * plan-switch tools off (agents turn them on), `.env` files asked on read.
 */
export const DEFAULT_RULES: Ruleset = [
  { permission: "*", pattern: "*", action: "allow" },
  { permission: "doom_loop", pattern: "*", action: "ask" },
  { permission: "external_directory", pattern: "*", action: "ask" },
  { permission: "question", pattern: "*", action: "deny" },
  { permission: "plan_enter", pattern: "*", action: "deny" },
  { permission: "plan_exit", pattern: "*", action: "deny" },
  { permission: "read", pattern: "*.env", action: "ask" },
  { permission: "read", pattern: "*.env.*", action: "ask" },
  { permission: "read", pattern: "*.env.example", action: "allow" },
];
