import { newSession, openApp } from "./app";
import { expect, test } from "./fixtures";

test("the Files panel shows the storage the session uses", async ({ page }) => {
  await openApp(page);
  await newSession(page);
  const ws = page.getByRole("region", { name: "Workspace" });
  await ws.getByLabel("Upload files").setInputFiles({ name: "data.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(3072, 7) });
  await expect(ws.getByRole("button", { name: "data.bin", exact: true })).toBeVisible();
  await expect(ws.getByText(/^Storage: 3\.0 KB of files, 0 B of history/)).toBeVisible();
});
