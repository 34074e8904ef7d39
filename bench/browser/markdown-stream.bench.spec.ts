/**
 * Streaming a realistic ~30 KB markdown answer (code fences, lists, tables, long paragraphs) at
 * ~200 chunks/s, into an empty session and into one that already holds 2,000 parts: long tasks
 * (> 50 ms) on the main thread, three runs each, median and range. Before each send it awaits what
 * typing starts (`typedFirst`): the stream is measured, not the first send's one-time loads. Prints a
 * table; asserts nothing about speed.
 */
import type { Page } from "@playwright/test";
import { configure, newSession, openApp, send, waitIdle } from "../../e2e/app";
import { expect, type MockOpenAI, test } from "../../e2e/fixtures";
import { chunks, markdownDocument } from "./markdown-document";
import { seedSession } from "./seed";
import { articleShows, installedApp, longTasks, typedFirst, watchLongTasks } from "./table";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const range = (xs: number[]) => `${Math.min(...xs)}–${Math.max(...xs)}`;
const LAST = "That is all for this change.";
const DOC = `${markdownDocument()}\n\n${LAST}`;
const CHUNKS = chunks(DOC);

async function streamOnce(page: Page, mock: MockOpenAI, seedParts: number, run: number) {
  const sid = seedParts > 0 ? (await seedSession(page, seedParts)).id : await newSession(page);
  await page.goto(`/#/s/${sid}`);
  await page.getByRole("textbox", { name: "Message" }).waitFor();
  if (seedParts > 0) await page.getByRole("article").last().waitFor();
  await typedFirst(page);
  await watchLongTasks(page);
  mock.setScript([{ text: CHUNKS, chunkDelayMs: 5 }]);
  const t0 = Date.now();
  await send(page, `stream markdown ${run}`);
  // The whole answer is on screen (its last words rendered), then the run ends.
  await articleShows(page, LAST);
  const ms = Date.now() - t0;
  // Counting the answer's tokens on a loaded machine can take a while after the last chunk.
  await expect.poll(() => page.evaluate((id) => (globalThis as unknown as { __tabcode: { sessions: { isBusy(id: string): boolean } } }).__tabcode.sessions.isBusy(id), sid), { timeout: 120_000 }).toBe(false);
  await waitIdle(page, sid);
  const long = await longTasks(page);
  return { count: long.length, longest: long.length ? Math.round(Math.max(...long)) : 0, rate: Math.round(CHUNKS.length / (ms / 1000)) };
}

test("realistic markdown stream: empty session and 2,000-part session", async ({ page, mock }) => {
  test.setTimeout(600_000);
  await openApp(page);
  await installedApp(page);
  await configure(page, mock, "openai-compatible");
  const rows: [string, string][] = [["markdown answer: size / chunks", `${(DOC.length / 1024).toFixed(1)} KB / ${CHUNKS.length.toLocaleString("en")}`]];
  for (const [label, seed] of [
    ["empty session", 0],
    ["2,000-part session", 2000],
  ] as const) {
    const res = [];
    for (let run = 0; run < 3; run++) res.push(await streamOnce(page, mock, seed, run));
    const c = res.map((r) => r.count);
    const l = res.map((r) => r.longest);
    const s = res.map((r) => r.rate);
    rows.push([`${label}: chunks/s`, `${median(s)} (${range(s)})`]);
    rows.push([`${label}: long tasks > 50 ms`, `${median(c)} (${range(c)})`]);
    rows.push([`${label}: longest task ms`, `${median(l)} (${range(l)})`]);
  }
  const w = Math.max(...rows.map((r) => r[0].length));
  console.log(`\n| ${"markdown stream (median, range of 3 runs)".padEnd(w)} | result |\n|${"-".repeat(w + 2)}|--------|`);
  for (const [k, v] of rows) console.log(`| ${k.padEnd(w)} | ${v} |`);
});
