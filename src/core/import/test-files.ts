/** Test helper: fixture files as the importers receive them (relative path + text). */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { TextFile } from "./types";

const ROOT = fileURLToPath(new URL("./__fixtures__/", import.meta.url));

/** Every file under a fixture folder, paths relative to `__fixtures__`. */
export function fixtureFiles(dir: string): TextFile[] {
  const out: TextFile[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push({ path: relative(ROOT, p), text: readFileSync(p, "utf8") });
    }
  };
  walk(join(ROOT, dir));
  return out;
}
