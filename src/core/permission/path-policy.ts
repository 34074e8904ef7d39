/**
 * Path rules the sandbox filesystem enforces on every change, whoever makes
 * it (the edit/write tools, any shell command, any engine running inside the
 * sandbox). Serialisable, so the page can hand it to the sandbox Worker.
 *
 * - A **protect** rule (`protect "config/**" deny`) forbids every change of a
 *   matching workspace path: writes, truncations, renames, deletes, links,
 *   mode and time changes. A later `protect … allow` rule lifts it (last match
 *   wins, like every rule).
 * - An `edit` rule that denies a path forbids changing it by any route too.
 * - Outside the workspace everything is read-only, except the session's own
 *   scratch directory (`/tmp`, in memory, never persisted) and `/dev/null`.
 */
import type { PermissionRule, Ruleset } from "../schema";
import { isInside, normalizePath, relativeTo } from "../sandbox-path";
import { decidingRule } from "./evaluate";

export interface PathPolicy {
  /** The workspace root. */
  root: string;
  /** The scratch directory writable outside the workspace. */
  scratch: string;
  /** The configured rulesets in force (defaults → agent → user → session). */
  rules: Ruleset[];
}

/** Where writes outside the workspace may go. */
export const SCRATCH_DIR = "/tmp";
const SINKS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"]);

export function pathPolicy(root: string, rules: Ruleset[], scratch = SCRATCH_DIR): PathPolicy {
  return { root: normalizePath(root), scratch: normalizePath(scratch), rules };
}

/** What a refused change was. */
export interface PathRefusal {
  path: string;
  /** The rule that refused it; undefined for the read-only outside. */
  rule?: PermissionRule;
  message: string;
}

/** Words for an operation in a refusal message. */
export type ChangeKind = "write" | "truncate" | "append" | "delete" | "rename" | "link" | "mkdir" | "chmod" | "touch" | "copy";

/** The protect rule covering a workspace path, if any. */
export function protectingRule(policy: PathPolicy, rel: string): PermissionRule | undefined {
  const rule = decidingRule("protect", rel, ...policy.rules);
  return rule?.action === "deny" ? rule : undefined;
}

/** An `edit` rule denying a workspace path, if any. */
function editDenyingRule(policy: PathPolicy, rel: string): PermissionRule | undefined {
  const rule = decidingRule("edit", rel, ...policy.rules);
  return rule?.action === "deny" ? rule : undefined;
}

/**
 * Why changing `path` (absolute, already resolved through links by the caller
 * when it can be) is refused, or undefined when it is allowed.
 */
export function changeRefusal(policy: PathPolicy, path: string, kind: ChangeKind): PathRefusal | undefined {
  const abs = normalizePath(path);
  if (SINKS.has(abs)) return undefined;
  if (!isInside(policy.root, abs)) {
    const external = decidingRule("external_directory", abs, ...policy.rules);
    const inScratch = isInside(policy.scratch, abs) && (abs !== policy.scratch || kind === "mkdir" || kind === "touch");
    if (inScratch && external?.action !== "deny") return undefined;
    return {
      path: abs,
      rule: external?.action === "deny" ? external : undefined,
      message: inScratch
        ? `${abs}: ${kind} refused — denied by your rule "external_directory ${external?.pattern ?? "*"}"`
        : `${abs}: ${kind} refused — paths outside the workspace are read-only; only the scratch directory ${policy.scratch} (per session, not kept) is writable`,
    };
  }
  if (abs === policy.root && kind !== "mkdir" && kind !== "touch") {
    return { path: abs, message: `${abs}: ${kind} refused — the workspace root itself cannot be removed or replaced` };
  }
  const rel = relativeTo(policy.root, abs);
  const protect = protectingRule(policy, rel);
  if (protect) return { path: abs, rule: protect, message: `${rel}: ${kind} refused — protected by your rule "protect ${protect.pattern}"` };
  // A directory is not a file edit: `edit` rules name files (a plan file's new folder must be creatable).
  const edit = kind === "mkdir" ? undefined : editDenyingRule(policy, rel);
  if (edit) return { path: abs, rule: edit, message: `${rel}: ${kind} refused — denied by your rule "edit ${edit.pattern}"` };
  return undefined;
}

/** Whether any protect or edit-deny rule exists (directory deletes then check every descendant). */
export function hasPathRules(policy: PathPolicy): boolean {
  return policy.rules.some((rs) => rs.some((r) => (r.permission === "protect" || r.permission === "edit") && r.action === "deny"));
}

/** Thrown by the sandbox filesystem for a refused change; shells print its message. */
export class PathRefused extends Error {
  override readonly name = "PathRefused";
  readonly code = "EACCES";
  constructor(readonly refusal: PathRefusal) {
    super(refusal.message);
  }
}
