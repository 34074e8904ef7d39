/** Whole-workspace reads: every file, and the workspace as a zip. */
import { zipSync } from "fflate";
import type { Sandbox } from "../ports/sandbox";

/** Every file under the workspace root (skipping the .tabcode scratch folder), as [relative path, bytes]. */
export async function allFiles(sandbox: Sandbox): Promise<[string, Uint8Array][]> {
  const out: [string, Uint8Array][] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await sandbox.fs.list(dir)) {
      if (e.type === "directory") {
        if (dir === sandbox.root && e.name === ".tabcode") continue;
        await walk(e.path);
      } else out.push([e.path.slice(sandbox.root.length + 1), await sandbox.fs.readFile(e.path)]);
    }
  };
  await walk(sandbox.root);
  return out;
}

/** The workspace as a zip (fflate). */
export async function workspaceZip(sandbox: Sandbox): Promise<Uint8Array> {
  return zipSync(Object.fromEntries(await allFiles(sandbox)), { level: 6 });
}
