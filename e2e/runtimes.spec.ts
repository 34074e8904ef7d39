import { cacheApp, configure, newSession, openApp, send, storedMessages, waitIdle } from "./app";
import { expect, test } from "./fixtures";

const CALC_BUG = "def add(a, b):\n    return a - b\n";
const TEST = "import unittest\nfrom calc import add\n\n\nclass AddTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n";

/** What the model saw as the result of the last tool call of request `i`. */
function lastToolOutput(body: string): string {
  return body.slice(body.lastIndexOf('"role":"tool"'));
}

test("python3 runs a failing unittest, the fix passes, git commits; files, history and offline survive", async ({ page, mock, context }) => {
  test.setTimeout(240_000);
  await openApp(page);
  await cacheApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  const ws = page.getByRole("region", { name: "Workspace" });

  mock.setScript([
    { toolCalls: [{ name: "write", args: { filePath: "calc.py", content: CALC_BUG } }] },
    { toolCalls: [{ name: "write", args: { filePath: "test_calc.py", content: TEST } }] },
    { toolCalls: [{ name: "bash", args: { command: "python3 -m unittest", description: "run the tests" } }] },
    { toolCalls: [{ name: "edit", args: { filePath: "calc.py", oldString: "a - b", newString: "a + b" } }] },
    { toolCalls: [{ name: "bash", args: { command: "python3 -m unittest -v", description: "run the tests again" } }] },
    { toolCalls: [{ name: "bash", args: { command: "git init && git add -A && git commit -m 'Add calc with tests'", description: "commit" } }] },
    { toolCalls: [{ name: "bash", args: { command: "git log --oneline", description: "show history" } }] },
    { text: "Fixed add() and committed." },
  ]);
  await send(page, "Write calc.py with a test, run it, fix it, commit");
  await expect(page.getByRole("article").filter({ hasText: "Fixed add() and committed." })).toBeVisible({ timeout: 180_000 });
  await waitIdle(page, id);

  const bodies = mock.modelRequests().map((r) => r.rawBody);
  expect(lastToolOutput(bodies[3] ?? "")).toContain("FAILED (failures=1)");
  expect(lastToolOutput(bodies[3] ?? "")).toContain("Exit code: 1");
  // On screen the failed run says so on its closed card; the passing one says done.
  await expect(page.getByRole("group", { name: "Tool bash: finished with exit code 1" })).toContainText("exit 1");
  await expect(page.getByRole("group", { name: "Tool bash: done" })).toHaveCount(3);
  expect(lastToolOutput(bodies[5] ?? "")).toContain("test_add (test_calc.AddTest.test_add) ... ok");
  expect(lastToolOutput(bodies[5] ?? "")).toContain("Exit code: 0");
  expect(lastToolOutput(bodies[6] ?? "")).toMatch(/Initialized empty Git repository in \/workspace\/\.git\/.*\[main \(root-commit\) [0-9a-f]{7}\] Add calc with tests/s);
  expect(lastToolOutput(bodies[7] ?? "")).toMatch(/[0-9a-f]{7} Add calc with tests/);

  // The failed run's card shows the test run's output.
  const failed = page.getByRole("group", { name: "Tool bash: finished with exit code 1" });
  await failed.getByRole("button").first().click();
  await expect(failed).toContainText("FAILED (failures=1)");

  // Files panel: the module and its test (the repository itself is hidden).
  await expect(ws.getByRole("button", { name: "calc.py", exact: true })).toBeVisible();
  await expect(ws.getByRole("button", { name: "test_calc.py", exact: true })).toBeVisible();
  await expect(ws.getByRole("button", { name: ".git", exact: true })).toHaveCount(0);
  const stored = await storedMessages(page, id);
  expect(stored.flatMap((m) => m.parts).some((p) => p.type === "patch")).toBe(true);

  // Reload keeps files and git history; then cut the network: python and git still work.
  await page.reload();
  await expect(ws.getByRole("button", { name: "calc.py", exact: true })).toBeVisible();
  await context.setOffline(true);
  await page.reload();
  await expect(ws.getByRole("button", { name: "calc.py", exact: true })).toBeVisible();
  // Offline also cuts the scripted model (it is a network server), so the engines are driven through the
  // app's own sandbox service, the one the bash tool uses: no request may leave the page.
  const offline = await page.evaluate(async (sessionID) => {
    const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ exec(c: string): Promise<{ combined: string; exitCode: number }> } | undefined> } } }).__tabcode;
    const sb = await t.sandbox.sandboxFor(sessionID);
    return sb?.exec("git log --oneline && git status --short && python3 -m unittest");
  }, id);
  expect(offline?.combined).toMatch(/^[0-9a-f]{7} Add calc with tests\n/);
  expect(offline?.combined).toContain("Ran 1 test");
  expect(offline?.combined).toContain("OK");
  expect(offline?.exitCode).toBe(0);
  await context.setOffline(false);
});

test("a runaway Python script is stopped by the command timeout and a memory hog by the memory cap; the page stays responsive and Python restarts", async ({ page, mock }) => {
  test.setTimeout(240_000);
  await openApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  mock.setScript([
    { toolCalls: [{ name: "write", args: { filePath: "keep.txt", content: "safe\n" } }] },
    { toolCalls: [{ name: "bash", args: { command: "python3 -c 'while True: pass'", description: "spin", timeout: 15_000 } }] },
    { toolCalls: [{ name: "bash", args: { command: "python3 -c 'print(6 * 7)' && cat keep.txt", description: "after the restart" } }] },
    { toolCalls: [{ name: "bash", args: { command: "python3 -c 'x = [bytearray(64 * 2**20) for _ in range(100)]'", description: "eat memory" } }] },
    { toolCalls: [{ name: "bash", args: { command: "python3 -c 'print(\"still here\")' && cat keep.txt", description: "after the memory hog" } }] },
    { text: "Recovered." },
  ]);
  await send(page, "spin forever");
  // While Python spins in its Worker, the page keeps answering: a dialog opens and closes mid-run.
  const spinning = page.getByRole("group", { name: "Tool bash: running" });
  await expect(spinning).toBeVisible({ timeout: 120_000 });
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog).toBeVisible();
  await expect(spinning).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  // Typing works too, while the interpreter still spins.
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("typed while python spins");
  await expect(box).toHaveValue("typed while python spins");
  await expect(spinning).toBeVisible();
  await box.fill("");
  await expect(page.getByRole("article").filter({ hasText: "Recovered." })).toBeVisible({ timeout: 180_000 });
  await waitIdle(page, id);
  const bodies = mock.modelRequests().map((r) => r.rawBody);
  expect(lastToolOutput(bodies[2] ?? "")).toContain("bash tool terminated the command after exceeding the timeout of 15000 ms");
  expect(lastToolOutput(bodies[2] ?? "")).toContain("Exit code: 124");
  expect(lastToolOutput(bodies[3] ?? "")).toContain("42\\nsafe\\n");
  expect(lastToolOutput(bodies[4] ?? "")).toContain("MemoryError: the script used more memory than the sandbox allows");
  expect(lastToolOutput(bodies[4] ?? "")).toContain("the interpreter was restarted to free it");
  expect(lastToolOutput(bodies[5] ?? "")).toContain("still here\\nsafe\\n");
});

test("Make available offline pre-fetches Python, so it runs offline without having run before", async ({ page, context }) => {
  test.setTimeout(240_000);
  await openApp(page);
  await cacheApp(page);
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByText("Sandbox and context").click();
  await expect(dialog.getByRole("status").filter({ hasText: "downloads the first time" })).toBeVisible();
  await dialog.getByRole("button", { name: "Make available offline" }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "Python is available offline." })).toBeVisible({ timeout: 120_000 });
  await expect(dialog.getByRole("button", { name: "Make available offline" })).toBeDisabled();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await context.setOffline(true);
  await page.reload();
  const id = await newSession(page);
  const r = await page.evaluate(async (sessionID) => {
    const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ exec(c: string): Promise<{ combined: string; exitCode: number }> } | undefined> } } }).__tabcode;
    const sb = await t.sandbox.sandboxFor(sessionID);
    return sb?.exec(`python3 -c "import json; print(json.dumps({'ok': True}))"`);
  }, id);
  expect(r?.combined).toBe('{"ok": true}\n');
  await context.setOffline(false);
});

const STATS_JS =
  "const fs = require('fs');\nconst nums = process.argv.slice(2).map(Number);\nconst sum = nums.reduce((a, b) => a + b, 0);\nfs.writeFileSync('out.json', JSON.stringify({ sum }));\nconsole.log('sum of', nums.length, 'numbers:', sum);\n";

test("node runs a workspace script and sqlite3 a database file; a runaway loop stops; both work offline", async ({ page, mock, context }) => {
  test.setTimeout(240_000);
  await openApp(page);
  await cacheApp(page);
  await configure(page, mock, "openai-compatible");
  const id = await newSession(page);
  const ws = page.getByRole("region", { name: "Workspace" });
  mock.setScript([
    { toolCalls: [{ name: "write", args: { filePath: "stats.js", content: STATS_JS } }] },
    { toolCalls: [{ name: "bash", args: { command: "node stats.js 3 4 5 && cat out.json", description: "run the script" } }] },
    {
      toolCalls: [
        {
          name: "bash",
          args: { command: `sqlite3 app.db "create table t(n); insert into t values (1),(2),(3);" && sqlite3 -json app.db "select sum(n) as s from t" && sqlite3 app.db "select * from nope"`, description: "query" },
        },
      ],
    },
    { toolCalls: [{ name: "bash", args: { command: "node -e 'while (true) {}'", description: "spin", timeout: 8_000 } }] },
    { toolCalls: [{ name: "bash", args: { command: "npm install left-pad", description: "install" } }] },
    { text: "Ran both." },
  ]);
  await send(page, "Run the script and query the database");
  await expect(page.getByRole("article").filter({ hasText: "Ran both." })).toBeVisible({ timeout: 180_000 });
  await waitIdle(page, id);
  const bodies = mock.modelRequests().map((r) => r.rawBody);
  expect(lastToolOutput(bodies[2] ?? "")).toContain('sum of 3 numbers: 12\\n{\\"sum\\":12}');
  expect(lastToolOutput(bodies[3] ?? "")).toContain('[{\\"s\\":6}]\\nError: in prepare, no such table: nope');
  expect(lastToolOutput(bodies[3] ?? "")).toContain("Exit code: 1");
  expect(lastToolOutput(bodies[4] ?? "")).toContain("node: stopped after");
  expect(lastToolOutput(bodies[4] ?? "")).toContain("Exit code: 124");
  expect(lastToolOutput(bodies[5] ?? "")).toContain("runs full Node.js and npm");
  expect(lastToolOutput(bodies[5] ?? "")).toContain("stackblitz.com");

  await expect(ws.getByRole("button", { name: "out.json", exact: true })).toBeVisible();
  await expect(ws.getByRole("button", { name: "app.db", exact: true })).toBeVisible();

  // Offline after the first visit: both engines come from the service worker's precache.
  await context.setOffline(true);
  await page.reload();
  await expect(ws.getByRole("button", { name: "app.db", exact: true })).toBeVisible();
  const offline = await page.evaluate(async (sessionID) => {
    const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ exec(c: string): Promise<{ combined: string; exitCode: number }> } | undefined> } } }).__tabcode;
    const sb = await t.sandbox.sandboxFor(sessionID);
    return sb?.exec(`sqlite3 -header -csv app.db "select count(*) as n from t" && node -p "require('./out.json').sum * 2"`);
  }, id);
  expect(offline?.combined).toBe("n\n3\n24\n");
  expect(offline?.exitCode).toBe(0);
  // Deep recursion in the browser's node Worker is QuickJS's RangeError, not a crashed Worker.
  const deep = await page.evaluate(async (sessionID) => {
    const t = (globalThis as unknown as { __tabcode: { sandbox: { sandboxFor(id: string): Promise<{ exec(c: string): Promise<{ combined: string; exitCode: number }> } | undefined> } } }).__tabcode;
    const sb = await t.sandbox.sandboxFor(sessionID);
    return sb?.exec(`node -e "function f(n) { return f(n + 1) + 1 } f(0)"; node -p 6*7`);
  }, id);
  expect(deep?.combined).toBe("42\nRangeError: Maximum call stack size exceeded (node in the local sandbox is QuickJS with a 128 KB stack)\n");
  await context.setOffline(false);
});
