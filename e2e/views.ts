/** Shared by the specs of the diff, editor, terminal and permission views: axe scans and screenshots. */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export const SIZES = [
  { name: "desktop", width: 1400, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** Serious and critical axe findings (WCAG 2.1 A/AA + best practice) on the page, or inside `include`. */
export async function seriousAxe(page: Page, include?: string): Promise<string[]> {
  await page.waitForTimeout(250);
  let b = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]);
  if (include) b = b.include(include);
  const r = await b.analyze();
  return r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** Saves a screenshot to test-results/screens/<name>.png (looked at by hand, not compared). */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `test-results/screens/${name}.png` });
}

/** Writes a file into the session's workspace through the app's services (as an upload would). */
export async function seedFile(page: Page, sessionID: string, path: string, text: string): Promise<void> {
  await page.evaluate(
    async ({ id, path, text }) => {
      const t = (
        globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ fs: { writeFile(p: string, d: string): Promise<void> } }> } } }
      ).__tabcode;
      await (await t.sandbox.sandboxFor(id)).fs.writeFile(path, text);
      // As any writer outside a step does: the Files panel re-reads (it may have listed the workspace already).
      window.dispatchEvent(new CustomEvent("tabcode:workspace-changed", { detail: { sessionID: id } }));
    },
    { id: sessionID, path, text },
  );
}
