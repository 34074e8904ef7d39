/**
 * A copy of the workspace's files for an engine that has its own filesystem
 * (Pyodide), and the way its changes come back: through the sandbox's own
 * filesystem (the same layer every shell command writes through), so
 * tracking, persistence and protect rules apply to engine writes too.
 */
import type { IFileSystem } from "just-bash";
import { joinPath, normalizePath } from "../../../../core/sandbox-path";
import type { FileView } from "./python-protocol";

/** Directories an engine never sees (git's store, installed packages, tabcode's scratch files). */
export const VIEW_SKIPPED_DIRS = new Set([".git", "node_modules", ".tabcode"]);
/** Upper bound on the bytes copied into an engine per run. */
export const MAX_VIEW_BYTES = 64 * 1024 * 1024;

export class ViewTooLargeError extends Error {
  override name = "ViewTooLargeError";
}

export async function collectView(fs: IFileSystem, root: string): Promise<FileView> {
  const out: FileView = {};
  let total = 0;
  const visit = async (dir: string, rel: string): Promise<void> => {
    for (const e of await entries(fs, dir)) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      const abs = joinPath(dir, e.name);
      if (e.isDirectory) {
        if (!VIEW_SKIPPED_DIRS.has(e.name)) await visit(abs, r);
      } else if (e.isFile) {
        const data = await fs.readFileBuffer(abs);
        total += data.length;
        if (total > MAX_VIEW_BYTES) throw new ViewTooLargeError(`the workspace has more than ${MAX_VIEW_BYTES >> 20} MB of files`);
        out[r] = data;
      }
    }
  };
  await visit(root, "");
  return out;
}

async function entries(fs: IFileSystem, dir: string): Promise<{ name: string; isFile: boolean; isDirectory: boolean }[]> {
  if (fs.readdirWithFileTypes) return fs.readdirWithFileTypes(dir);
  const names = await fs.readdir(dir);
  return Promise.all(
    names.map(async (name) => {
      const st = await fs.lstat(joinPath(dir, name));
      return { name, isFile: st.isFile, isDirectory: st.isDirectory };
    }),
  );
}

/** A relative path that stays inside the workspace, or undefined. */
export function confined(root: string, rel: string): string | undefined {
  const abs = normalizePath(joinPath(root, rel));
  return abs.startsWith(`${root}/`) ? abs : undefined;
}

/**
 * Applies an engine's changes; returns the paths it refused (outside the
 * workspace). With `failed`, a change the sandbox fs refuses (a protect
 * rule…) is recorded there and the others still go through; without it, it throws.
 */
export async function applyChanges(fs: IFileSystem, root: string, writes: FileView, removes: string[], failed?: string[]): Promise<string[]> {
  const refused: string[] = [];
  const attempt = async (fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (e) {
      if (!failed) throw e;
      failed.push(e instanceof Error ? e.message : String(e));
    }
  };
  for (const [rel, data] of Object.entries(writes)) {
    const abs = confined(root, rel);
    if (!abs) refused.push(rel);
    else
      await attempt(async () => {
        await fs.mkdir(abs.slice(0, abs.lastIndexOf("/")), { recursive: true });
        await fs.writeFile(abs, data);
      });
  }
  for (const rel of removes) {
    const abs = confined(root, rel);
    if (abs) await attempt(() => fs.rm(abs, { force: true }));
    else refused.push(rel);
  }
  return refused;
}
