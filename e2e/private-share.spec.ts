import { configure, newSession, openApp, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";

const LEAKED = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";

test("a passphrase share opens only with the passphrase, and a secret the user chose to remove is not in it", async ({ page, mock, freshContext }) => {
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([{ text: "The launch is on March 3rd." }]);
  await send(page, `use my key ${LEAKED} to check the launch date`);
  await expect(page.getByRole("article").filter({ hasText: "The launch is on March 3rd." })).toBeVisible();
  await waitIdle(page, id);

  await page.getByRole("button", { name: "Share" }).click();
  const dialog = page.getByRole("dialog", { name: "Share this session" });
  const finding = dialog.getByRole("checkbox", { name: /Remove OpenAI-style API key sk-p… \(44 characters\)/ });
  await expect(finding).toBeChecked();
  // The keyboard is in the passphrase once the check is done; Enter there creates the link.
  const passphrase = dialog.getByLabel("Passphrase (optional)");
  await expect(passphrase).toBeFocused();
  await passphrase.fill("correct horse battery");
  await passphrase.press("Enter");
  await expect(dialog.getByRole("button", { name: "Copy link" })).toBeFocused();
  const url = await dialog.getByRole("textbox", { name: "Share link" }).inputValue();
  expect(url).toContain("/#/share/p1.");
  await expect(dialog).toContainText("opens only with the passphrase");

  const fresh = await freshContext();
  const other = await fresh.newPage();
  await other.goto(url);
  await expect(other.getByRole("heading", { name: "This shared session is protected" })).toBeVisible();
  await expect(other.getByText("March 3rd")).toHaveCount(0);
  await expect(other.getByLabel("Passphrase")).toBeFocused();
  await other.getByLabel("Passphrase").fill("wrong horse");
  await other.getByRole("button", { name: "Open" }).click();
  await expect(other.getByRole("alert")).toContainText("Wrong passphrase");
  await expect(other.getByText("March 3rd")).toHaveCount(0);
  await other.getByLabel("Passphrase").fill("correct horse battery");
  await other.getByRole("button", { name: "Open" }).click();
  await expect(other.getByRole("article").filter({ hasText: "The launch is on March 3rd." })).toBeVisible();
  await expect(other.getByText("Shared session · read-only")).toBeVisible();
  await expect(other.getByRole("article").filter({ hasText: "[redacted OpenAI-style API key]" })).toBeVisible();
  await expect(other.getByText(LEAKED)).toHaveCount(0);
  await fresh.close();
});
