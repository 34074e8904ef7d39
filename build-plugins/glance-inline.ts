/**
 * Inlines `src/ui/glance/paint.ts` into index.html as a classic script at the end of the body: it paints the
 * kept snapshot of a session while the app's modules still load (see that file). The file imports nothing;
 * its types are stripped and its `export` keywords dropped, and the script calls `paintGlance(window)`.
 */
import { readFileSync } from "node:fs";
import { minifySync, type Plugin, transformWithOxc } from "vite";

const SOURCE = new URL("../src/ui/glance/paint.ts", import.meta.url);

/** The script's text (exported for the test that checks it stands alone). */
export async function glanceScript(): Promise<string> {
  const ts = readFileSync(SOURCE, "utf8");
  if (/^\s*import\s/m.test(ts)) throw new Error("src/ui/glance/paint.ts must import nothing: it is inlined into index.html");
  const { code } = await transformWithOxc(ts, "paint.ts", { lang: "ts" });
  const body = code.replace(/^export\s+(?=(const|function|let|type|interface)\b)/gm, "");
  return minifySync("glance.js", `(function () {\n${body}\npaintGlance(window);\n})();`).code;
}

export function glanceInline(): Plugin {
  return {
    name: "tabcode-glance-inline",
    // The built app only: in development there is no stylesheet link to tie the picture to.
    apply: "build",
    async transformIndexHtml() {
      return [{ tag: "script", children: await glanceScript(), injectTo: "body" }];
    },
  };
}
