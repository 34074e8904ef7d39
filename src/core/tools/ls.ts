/**
 * `list`: a tree view of a directory (at most 100 entries), skipping
 * dependency and build directories and any extra ignore globs.
 */
import picomatch from "picomatch";
import { z } from "../zod";
import type { FileEntry } from "../ports/sandbox";
import { relativeTo } from "../sandbox-path";
import { defineTool } from "./tool";
import { DEFAULT_IGNORED_DIRS, requireSandbox, workspacePath } from "./workspace";

export const LIST_LIMIT = 100;

const parameters = z.object({
  path: z.optional(z.string().check(z.describe("The directory to list (relative to the workspace root, or absolute inside it; default the root)"))),
  ignore: z.optional(z.array(z.string()).check(z.describe("Glob patterns to leave out"))),
});

interface Node {
  name: string;
  dirs: Map<string, Node>;
  files: string[];
}

function render(node: Node, depth: number, out: string[]): void {
  const pad = "  ".repeat(depth);
  for (const name of [...node.dirs.keys()].sort()) {
    out.push(`${pad}${name}/`);
    const child = node.dirs.get(name);
    if (child) render(child, depth + 1, out);
  }
  for (const f of [...node.files].sort()) out.push(`${pad}${f}`);
}

export const listTool = defineTool({
  id: "list",
  description: `Lists files and directories as a tree (at most ${LIST_LIMIT} entries).

- path is relative to the workspace root or absolute inside it; it defaults to the root.
- ${DEFAULT_IGNORED_DIRS.join(", ")} are skipped; pass ignore globs to skip more.
- Prefer glob and grep when you know what you are looking for.`,
  parameters,
  async execute(args, ctx) {
    const sandbox = requireSandbox(ctx);
    const { abs, rel } = workspacePath(sandbox, args.path);
    const st = await sandbox.fs.stat(abs);
    if (!st) throw new Error(`Directory not found: ${abs}`);
    if (st.type !== "directory") throw new Error(`Not a directory: ${abs}`);
    await ctx.ask({ permission: "list", patterns: [abs], always: ["*"], metadata: {} });

    const ignore = (args.ignore ?? []).length ? picomatch(args.ignore ?? [], { dot: true }) : undefined;
    const skipped = (e: FileEntry) => {
      if (e.type === "directory" && (DEFAULT_IGNORED_DIRS as readonly string[]).includes(e.name)) return true;
      if (!ignore) return false;
      const r = relativeTo(abs, e.path);
      return ignore(r) || ignore(e.name) || (e.type === "directory" && ignore(`${r}/`));
    };

    const root: Node = { name: "", dirs: new Map(), files: [] };
    let count = 0;
    let truncated = false;
    const queue: Array<{ path: string; node: Node }> = [{ path: abs, node: root }];
    outer: for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      for (const e of await sandbox.fs.list(item.path)) {
        if (skipped(e)) continue;
        if (count >= LIST_LIMIT) {
          truncated = true;
          break outer;
        }
        count++;
        if (e.type === "directory") {
          const node: Node = { name: e.name, dirs: new Map(), files: [] };
          item.node.dirs.set(e.name, node);
          queue.push({ path: e.path, node });
        } else item.node.files.push(e.name);
      }
    }
    const lines = [`${abs}/`];
    render(root, 1, lines);
    if (truncated) lines.push("", `(Showing the first ${LIST_LIMIT} entries. Use a more specific path or glob to see the rest.)`);
    return { title: rel, output: lines.join("\n"), metadata: { count, truncated } };
  },
});
