/**
 * Helpers shared by the workspace tools: the sandbox requirement, path
 * confinement, read-before-write tracking, directory walks and diffs.
 */
import { hunkHeader } from "./hunk-header";
import { structuredPatch } from "diff";
import type { FileEntry, Sandbox, SandboxFS } from "../ports/sandbox";
import { confinePath } from "../sandbox-path";
import { sha256Hex } from "../snapshot/hash";
import { changeRefusal, type PathPolicy, PathRefused, pathPolicy } from "../permission/path-policy";
import type { ToolContext } from "./tool";

/** `ctx.state` key of the read-time map (absolute path → what was read). */
export const READ_TIMES_KEY = "read-times";

/** What `read` recorded about a file. */
export interface ReadRecord {
  /** SHA-256 of the whole file when it was read (or last written by a tool). */
  hash: string;
  /** When it was read, ms since epoch. */
  time: number;
}

/** Directory names listings and searches skip unless asked for. */
export const DEFAULT_IGNORED_DIRS = ["node_modules", ".git", "dist", "build", ".tabcode"] as const;

export function requireSandbox(ctx: Pick<ToolContext, "sandbox">): Sandbox {
  if (!ctx.sandbox) throw new Error("No workspace is available for this session (the sandbox is not ready).");
  return ctx.sandbox;
}

/**
 * The path policy for a tool's change of `abs`; throws (and logs the refusal)
 * when a protect rule, an edit deny or the read-only outside refuses it. Pass
 * the policy on to `sandbox.fs.writeFile`, which checks again through links.
 */
export function changePolicy(ctx: Pick<ToolContext, "rules" | "refused">, sandbox: Sandbox, abs: string): PathPolicy | undefined {
  if (!ctx.rules) return undefined;
  const policy = pathPolicy(sandbox.root, ctx.rules);
  const refusal = changeRefusal(policy, abs, "write");
  // `edit` rules are the tool's own ask (with its wording); the filesystem still enforces them for every other route.
  if (refusal && refusal.rule?.permission !== "edit") {
    ctx.refused?.(refusal.rule?.permission ?? "external_directory", refusal.path, refusal.rule);
    throw new PathRefused(refusal);
  }
  return policy;
}

/** Resolves a tool's path argument inside the workspace (relative paths start at the root). */
export function workspacePath(sandbox: Sandbox, input: string | undefined): { abs: string; rel: string } {
  return input === undefined ? { abs: sandbox.root, rel: "." } : confinePath(sandbox.root, input);
}

function readTimes(ctx: Pick<ToolContext, "state">): Map<string, ReadRecord> {
  const found = ctx.state.get(READ_TIMES_KEY);
  if (found instanceof Map) return found as Map<string, ReadRecord>;
  const fresh = new Map<string, ReadRecord>();
  ctx.state.set(READ_TIMES_KEY, fresh);
  return fresh;
}

/** Records that the model has seen `content` of `abs` (after a read, or after a tool wrote it). */
export async function recordRead(ctx: Pick<ToolContext, "state">, abs: string, content: Uint8Array | string): Promise<void> {
  readTimes(ctx).set(abs, { hash: await sha256Hex(content), time: Date.now() });
}

/** Throws unless `abs` was read in this session and has not changed since. */
export async function assertReadUnchanged(ctx: Pick<ToolContext, "state">, abs: string, content: Uint8Array | string): Promise<void> {
  const rec = readTimes(ctx).get(abs);
  if (!rec) throw new Error(`You must read the file ${abs} before changing it. Use the read tool first.`);
  if (rec.hash !== (await sha256Hex(content))) {
    throw new Error(
      `The file ${abs} has been modified since it was last read (at ${new Date(rec.time).toISOString()}). Read it again before changing it.`,
    );
  }
}

export interface WalkOptions {
  /** Directory names to skip. */
  skipDirs?: readonly string[];
  /** Stop after visiting this many entries (a guard against huge trees). */
  maxEntries?: number;
}

/** Every file below `dir` (breadth-first, each directory sorted by name). */
export async function walkFiles(fs: SandboxFS, dir: string, opts: WalkOptions = {}): Promise<{ files: FileEntry[]; complete: boolean }> {
  const skip = new Set(opts.skipDirs ?? []);
  const max = opts.maxEntries ?? 50_000;
  const files: FileEntry[] = [];
  const queue = [dir];
  let seen = 0;
  for (let d = queue.shift(); d !== undefined; d = queue.shift()) {
    for (const e of await fs.list(d)) {
      if (++seen > max) return { files, complete: false };
      if (e.type === "directory") {
        if (!skip.has(e.name)) queue.push(e.path);
      } else files.push(e);
    }
  }
  return { files, complete: true };
}

export interface FileDiff {
  diff: string;
  additions: number;
  deletions: number;
}

function normalizeEol(s: string): string {
  return s.replace(/\r\n/g, "\n");
}

/** Unified diff of one file (line endings normalised) with added/removed line counts. */
export function fileDiff(rel: string, before: string, after: string): FileDiff {
  const patch = structuredPatch(rel, rel, normalizeEol(before), normalizeEol(after), undefined, undefined, { context: 3 });
  let additions = 0;
  let deletions = 0;
  const out = [`Index: ${rel}`, "===================================================================", `--- ${rel}`, `+++ ${rel}`];
  for (const h of patch.hunks) {
    out.push(hunkHeader(h));
    for (const line of h.lines) {
      if (line.startsWith("+")) additions++;
      else if (line.startsWith("-")) deletions++;
      out.push(line);
    }
  }
  return { diff: `${out.join("\n")}\n`, additions, deletions };
}
