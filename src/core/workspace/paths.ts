/** The workspace's file paths (for @ mentions): relative, sorted, without tooling folders. */
import type { Sandbox } from "../ports/sandbox";

const SKIPPED = new Set([".git", "node_modules", ".tabcode"]);

/** Every file path under the root, relative to it, up to `limit` (the walk stops there). */
export async function workspacePaths(sandbox: Sandbox, limit = 5_000): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await sandbox.fs.list(dir).catch(() => []);
    for (const e of entries) {
      if (out.length >= limit) return;
      if (e.type === "directory") {
        if (!SKIPPED.has(e.name)) await walk(e.path);
      } else out.push(e.path.slice(sandbox.root.length + 1));
    }
  };
  await walk(sandbox.root);
  return out.sort();
}
