/**
 * The session's Permissions dialog on a phone: the decisions table never overflows sideways (each
 * decision is a stacked card of labelled lines); on desktop it stays a table. Axe and screenshots.
 */
import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";
import { SIZES, seriousAxe, shoot } from "./views";

for (const size of SIZES) {
  test(`permissions dialog: decisions fit the screen — ${size.name}`, async ({ page, mock }) => {
    test.setTimeout(90_000);
    await openApp(page);
    await configure(page, mock, "openai-compatible", {
      permissions: [
        { permission: "bash", pattern: "*", action: "allow" },
        { permission: "bash", pattern: "rm *", action: "deny" },
        { permission: "protect", pattern: "config/**", action: "deny" },
      ],
    });
    const id = await newSession(page);
    mock.setScript([
      { toolCalls: [{ name: "bash", args: { command: "ls -la /workspace && echo a-rather-long-argument-that-would-widen-a-table-column-a-lot", description: "list" } }] },
      { toolCalls: [{ name: "bash", args: { command: "rm -rf /workspace/some/deeply/nested/directory/that/does/not/exist", description: "remove" } }] },
      { text: "Done." },
    ]);
    await send(page, "list and remove");
    await waitIdle(page, id);
    await page.setViewportSize({ width: size.width, height: size.height });

    if (size.width < 1200) await page.getByRole("button", { name: "More ▾" }).click();
    await page.getByRole(size.width < 1200 ? "menuitem" : "button", { name: "Permissions" }).click();
    const dialog = page.getByRole("dialog", { name: "Permissions of this session" });
    const table = dialog.getByRole("table");
    await expect(table.getByRole("row")).not.toHaveCount(0);
    await expect(table).toContainText("rm -rf /workspace/some/deeply/nested");
    // Nothing wider than the dialog: no sideways scrolling.
    const overflow = await dialog.evaluate((d) => ({ scroll: d.scrollWidth, client: d.clientWidth }));
    expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
    const box = await table.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(size.width);
    if (size.width < 900) {
      // Stacked: every value carries its column's name.
      const cell = table.getByRole("cell", { name: /rm -rf/ }).first();
      const label = await cell.evaluate((el) => getComputedStyle(el, "::before").content);
      expect(label).toBe('"What"');
    }
    await shoot(page, `permissions-${size.name}`);
    expect(await seriousAxe(page, "dialog")).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    await shoot(page, `permissions-${size.name}-dark`);
    expect(await seriousAxe(page, "dialog")).toEqual([]);
  });
}
