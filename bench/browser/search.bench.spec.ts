/** Search over 1,000 sessions (20,000 parts) in Chromium: index build on import, query latency. Prints a table. */
import { openApp } from "../../e2e/app";
import { test } from "../../e2e/fixtures";
import { installedApp } from "./table";

test("search across 1,000 sessions", async ({ page }) => {
  await openApp(page);
  await installedApp(page);
  const result = await page.evaluate(async () => {
    const t = (globalThis as unknown as { __tabcode: { store: { importSession(s: unknown, m: unknown[]): Promise<void>; search(q: string, limit?: number): Promise<unknown[]> } } }).__tabcode;
    const vocab = "alpha beta gamma delta parser tokenizer compile render widget socket buffer stream cache index query schema router module config bundle".split(" ");
    let n = 0;
    const id = (p: string) => `${p}_${(0x100000000 + n++).toString(16).padStart(12, "0")}000abcdefghijk`;
    const rand = (i: number) => vocab[(i * 7919) % vocab.length];
    const t0 = performance.now();
    for (let s = 0; s < 1000; s++) {
      const sid = `ses_${(0xffffffff - s).toString(16).padStart(12, "0")}000abcdefghijk`;
      const session = { id: sid, title: `Session ${s} ${rand(s)}`, directory: "/workspace", version: "b", time: { created: s, updated: s }, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0 };
      const msgs = [];
      for (let m = 0; m < 10; m++) {
        const mid = id("msg");
        const words = Array.from({ length: 60 }, (_, k) => `${rand(s + m + k)}${(s * 31 + k) % 97}`).join(" ");
        msgs.push({ info: { id: mid, sessionID: sid, role: "user", time: { created: m }, agent: "build", model: { providerID: "x", modelID: "y" } }, parts: [{ id: id("prt"), sessionID: sid, messageID: mid, type: "text", text: `${words} unique${s}x${m}` }, { id: id("prt"), sessionID: sid, messageID: mid, type: "text", text: words }] });
      }
      await t.store.importSession(session, msgs);
    }
    const importMs = performance.now() - t0;
    const queries = ["unique500x5", "parser", "tokenizer12", "widget socket", "unique999x9", "cache index", "schema4", "nomatchatall", "alpha", "router7 module"];
    const times: number[] = [];
    const counts: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      const hits = await t.store.search(q, 50);
      times.push(performance.now() - s);
      counts.push(hits.length);
    }
    return { importMs, times, counts, queries };
  });
  const sorted = [...result.times].sort((a, b) => a - b);
  console.log("\n| measure | result |\n|---|---|");
  console.log(`| import 1,000 sessions / 20,000 parts (index built in the same transactions) | ${Math.round(result.importMs)} ms |`);
  console.log(`| query latency, median of ${result.times.length} | ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms |`);
  console.log(`| query latency, worst | ${sorted.at(-1)?.toFixed(1)} ms |`);
  for (const [i, q] of result.queries.entries()) console.log(`| "${q}" → ${result.counts[i]} hits | ${result.times[i]?.toFixed(1)} ms |`);
});
