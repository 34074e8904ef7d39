/**
 * `glob`: files whose path (relative to the search directory) matches a glob,
 * newest first, at most 100.
 */
import picomatch from "picomatch";
import { z } from "../zod";
import { relativeTo } from "../sandbox-path";
import { defineTool } from "./tool";
import { DEFAULT_IGNORED_DIRS, requireSandbox, walkFiles, workspacePath } from "./workspace";

export const GLOB_LIMIT = 100;

const parameters = z.object({
  pattern: z.string().check(z.describe('The glob pattern to match files against, e.g. "**/*.ts" or "src/**/*.test.ts"')),
  path: z.optional(z.string().check(z.describe("The directory to search in (default the workspace root)"))),
});

/** Ignored directories the pattern does not name explicitly. */
export function skippedDirs(pattern: string): string[] {
  return DEFAULT_IGNORED_DIRS.filter((d) => !pattern.includes(d));
}

export const globTool = defineTool({
  id: "glob",
  description: `Finds files by name pattern ("**/*.ts", "src/**/index.*"), newest first.

- Patterns are matched against paths relative to path (default the workspace root).
- Returns at most ${GLOB_LIMIT} files. ${DEFAULT_IGNORED_DIRS.join(", ")} are skipped unless the pattern names them.
- Use grep to search file contents.`,
  parameters,
  async execute(args, ctx) {
    const sandbox = requireSandbox(ctx);
    const { abs, rel } = workspacePath(sandbox, args.path);
    const st = await sandbox.fs.stat(abs);
    if (st?.type !== "directory") throw new Error(`Directory not found: ${abs}`);
    await ctx.ask({ permission: "glob", patterns: [args.pattern], always: ["*"], metadata: { path: abs } });

    const isMatch = picomatch(args.pattern, { dot: true });
    const { files } = await walkFiles(sandbox.fs, abs, { skipDirs: skippedDirs(args.pattern) });
    const matched = files.filter((f) => isMatch(relativeTo(abs, f.path))).sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : 1));
    const truncated = matched.length > GLOB_LIMIT;
    const shown = matched.slice(0, GLOB_LIMIT);
    // Listed paths are reads: `read` rules (`*.env`) decide whether the model may see them.
    const listed = shown.map((f) => relativeTo(sandbox.root, f.path));
    if (listed.length) await ctx.ask({ permission: "read", patterns: listed, always: ["*"], metadata: { glob: args.pattern } });
    const lines = shown.length ? shown.map((f) => f.path) : ["No files found"];
    if (truncated) lines.push("", `(Results are truncated: showing the first ${GLOB_LIMIT} of ${matched.length} files. Use a more specific path or pattern.)`);
    return { title: rel === "." ? args.pattern : `${rel}: ${args.pattern}`, output: lines.join("\n"), metadata: { count: matched.length, truncated } };
  },
});
