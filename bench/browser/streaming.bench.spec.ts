/**
 * Streaming and long-session benchmarks in Chromium (built app):
 * 1. stream ~200 chunks/s into a session that already holds 2,000 parts and count long tasks (> 50 ms);
 * 2. time to open a 5,000-part session (navigation → last message rendered).
 * Prints a table; asserts nothing about speed.
 */
import { configure, openApp, send, waitIdle } from "../../e2e/app";
import { test } from "../../e2e/fixtures";

async function seedSession(page: import("@playwright/test").Page, parts: number): Promise<string> {
  return page.evaluate(async (parts) => {
    const t = (globalThis as unknown as { __tabcode: { sessions: { createSession(): Promise<{ id: string }> }; store: { importSession(s: unknown, m: unknown[]): Promise<void>; getSession(id: string): Promise<unknown> } } }).__tabcode;
    const s = await t.sessions.createSession();
    const session = await t.store.getSession(s.id);
    const msgs: unknown[] = [];
    let n = 0;
    const id = (p: string) => `${p}_${(0x100000000 + n++).toString(16).padStart(12, "0")}000abcdefghijk`;
    // Each exchange: user (1 text part) + assistant (step-start, text, tool, step-finish) = 5 parts.
    for (let i = 0; n < parts * 2; i++) {
      const u = id("msg");
      msgs.push({ info: { id: u, sessionID: s.id, role: "user", time: { created: i }, agent: "build", model: { providerID: "x", modelID: "y" } }, parts: [{ id: id("prt"), sessionID: s.id, messageID: u, type: "text", text: `Question ${i}: please look at file${i}.ts` }] });
      const a = id("msg");
      const tokens = { input: 100, output: 20, reasoning: 0, cache: { read: 0, write: 0 } };
      msgs.push({
        info: { id: a, sessionID: s.id, role: "assistant", parentID: u, time: { created: i, completed: i }, modelID: "y", providerID: "x", agent: "build", cost: 0, tokens, finish: "stop" },
        parts: [
          { id: id("prt"), sessionID: s.id, messageID: a, type: "step-start" },
          { id: id("prt"), sessionID: s.id, messageID: a, type: "text", text: `Answer ${i} with **markdown**, a list:\n- one\n- two\n\n\`\`\`ts\nconst x = ${i};\n\`\`\`` },
          { id: id("prt"), sessionID: s.id, messageID: a, type: "tool", callID: `c${i}`, tool: "todowrite", state: { status: "completed", input: { todos: [] }, output: "The todo list is now empty.", title: "0 todos open", metadata: {}, time: { start: 1, end: 2 } } },
          { id: id("prt"), sessionID: s.id, messageID: a, type: "step-finish", reason: "stop", cost: 0, tokens },
        ],
      });
      if (msgs.length * 2.5 >= parts) break;
    }
    await t.store.importSession(session, msgs);
    return s.id;
  }, parts);
}

test("streaming into a long session; opening a 5,000-part session", async ({ page, mock }) => {
  const rows: [string, string][] = [];
  await openApp(page);
  await configure(page, mock, "openai-compatible");

  // 1. Stream 1,000 chunks at ~200 chunks/s into a 2,000-part session.
  const sid = await seedSession(page, 2000);
  await page.goto(`/#/s/${sid}`);
  await page.getByRole("article").last().waitFor();
  await page.evaluate(() => {
    const w = window as unknown as { __long: number[] };
    w.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__long.push(e.duration);
    }).observe({ type: "longtask", buffered: false });
  });
  const chunks = Array.from({ length: 1000 }, (_, i) => `w${i} `);
  mock.setScript([{ text: chunks, chunkDelayMs: 3 }]);
  const t0 = Date.now();
  await send(page, "stream please");
  await page.getByRole("article").filter({ hasText: "w999" }).waitFor({ timeout: 60_000 });
  await waitIdle(page, sid);
  const streamMs = Date.now() - t0;
  const long = await page.evaluate(() => (window as unknown as { __long: number[] }).__long);
  rows.push(["stream: chunks", "1,000"]);
  rows.push(["stream: wall time", `${streamMs} ms (${Math.round(1000 / (streamMs / 1000))} chunks/s)`]);
  rows.push(["stream: long tasks > 50 ms", `${long.length}`]);
  rows.push(["stream: longest task", `${long.length ? Math.round(Math.max(...long)) : 0} ms`]);

  // 2. Open a 5,000-part session.
  const big = await seedSession(page, 5000);
  await page.goto("/");
  await page.getByRole("navigation", { name: "Sessions" }).waitFor();
  const opens: number[] = [];
  for (let i = 0; i < 3; i++) {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Sessions" }).waitFor();
    const start = Date.now();
    await page.evaluate((id) => {
      window.location.hash = `#/s/${id}`;
    }, big);
    await page.getByRole("article").last().waitFor();
    opens.push(Date.now() - start);
  }
  const dom = await page.locator("article").count();
  rows.push(["open 5,000-part session (3 runs)", opens.map((o) => `${o} ms`).join(", ")]);
  rows.push(["articles in the DOM (virtualised)", String(dom)]);

  const w = Math.max(...rows.map((r) => r[0].length));
  console.log(`\n| ${"measure".padEnd(w)} | result |\n|${"-".repeat(w + 2)}|--------|`);
  for (const [k, v] of rows) console.log(`| ${k.padEnd(w)} | ${v} |`);
});
