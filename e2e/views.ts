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

/** One axe finding, with the screen (and scheme) it was found on. */
export interface AxeFinding {
  screen: string;
  id: string;
  impact: string;
  nodes: string[];
}

/** axe's rules that read colours. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * Every rule on the screen as it is, in the light scheme; then the same state in the dark scheme with the rules
 * that read colours (the scheme changes nothing else): both schemes of every state, walked once. `shot` saves a
 * screenshot of each scheme (`<shot>.png`, `<shot>-dark.png`).
 */
export async function axeBothSchemes(page: Page, screen: string, out: AxeFinding[], shot?: string): Promise<void> {
  // Let transitions and lazy chunks (highlighting) settle.
  await page.waitForTimeout(300);
  if (shot) await page.screenshot({ path: `${shot}.png` });
  const light = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForTimeout(100);
  if (shot) await page.screenshot({ path: `${shot}-dark.png` });
  const dark = await new AxeBuilder({ page }).withRules(COLOUR_RULES).analyze();
  await page.emulateMedia({ colorScheme: "light" });
  for (const [scheme, r] of [["", light], [" (dark)", dark]] as const) {
    for (const v of r.violations) out.push({ screen: screen + scheme, id: v.id, impact: v.impact ?? "minor", nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) });
  }
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
