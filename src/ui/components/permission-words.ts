import type { PendingPermission } from "../../core/permission/broker";

type Asked = Pick<PendingPermission, "permission" | "title" | "patterns" | "always">;

/** "a", "a and b", "a, b and c", each quoted. */
function quoted(items: readonly string[]): string {
  const q = items.map((i) => `“${i}”`);
  return q.length < 2 ? (q[0] ?? "") : `${q.slice(0, -1).join(", ")} and ${q.at(-1)}`;
}

/** The question: the tool, and the permission too where its name differs ("Allow write (edit)?", not "Allow bash (bash)?"). */
export function permissionQuestion(req: Asked): string {
  if (req.permission === "doom_loop") return `The model called ${req.patterns.join(", ")} three times in a row with the same input. Let it continue?`;
  return req.title === req.permission ? `Allow ${req.title}?` : `Allow ${req.title} (${req.permission})?`;
}

/** What "Always allow" will allow from now on, in words shown beside it (undefined: no such choice). */
export function alwaysScope(req: Asked): string | undefined {
  if (req.always.length === 0) return undefined;
  if (req.permission === "doom_loop") return `Always allow lets ${quoted(req.always)} repeat itself for the rest of this session.`;
  if (req.always.includes("*")) return `Always allow covers every ${req.permission} request for the rest of this session.`;
  return `Always allow covers ${quoted(req.always)} for the rest of this session.`;
}

/** One line of a command for a sentence: the first line, cut at 80 characters. */
function oneLine(text: string): string {
  const first = text.trim().split("\n")[0] ?? "";
  const cut = first.length > 80 ? `${first.slice(0, 79)}…` : first;
  return first === text.trim() ? cut : `${cut.replace(/…$/, "")} …`;
}

/**
 * For a command that another command runs (a script, xargs, find -exec, sh -c…), asked about while the call's
 * own line runs: which line runs it, so the question is not read as a new call of the model's.
 */
export function nestedContext(req: Pick<PendingPermission, "metadata">): string | undefined {
  const meta = req.metadata;
  if (meta?.nested !== true) return undefined;
  const within = typeof meta.within === "string" && meta.within.trim() ? meta.within : undefined;
  const by = within ? `“${oneLine(within)}”` : "the command line the model ran";
  return `A command run by ${by}: your rules ask before each command that runs, including those a script, xargs or find -exec starts.`;
}
