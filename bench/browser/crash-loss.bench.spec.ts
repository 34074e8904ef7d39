/**
 * Streamed text lost when the browser is killed: a local Chat Completions server streams numbered
 * words every few milliseconds and notes when it sent each; mid-stream the whole Chromium process
 * tree is killed (SIGKILL, no pagehide), Chromium is started again on the same profile, and the
 * stored text is compared with what the app had received (its `part.live` events, reported as
 * they happen): loss = kill time − when the app received the first word that was not stored
 * (0 when everything it had received was stored). The same against the server's send times
 * includes the browser's own backlog (network, a busy main thread). Three runs; prints a table.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { chromium, test } from "@playwright/test";
import base from "../../playwright.config";
import { printRows, summary } from "./table";

const WORDS = 3000;
const EVERY_MS = 4;

/** A streaming server; `sent[i]` is when word i was written. */
function startServer() {
  const state = { sent: [] as number[] };
  const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*", "access-control-allow-methods": "POST, GET, OPTIONS", "cross-origin-resource-policy": "cross-origin" };
  const chunk = (content: string, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion.chunk", created: 0, model: "bench", choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === "OPTIONS") return res.writeHead(204, cors).end();
    let body = "";
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", async () => {
      res.writeHead(200, { ...cors, "content-type": "text/event-stream", "cache-control": "no-cache" });
      if (body.includes("Generate a title")) return res.end(`${chunk("Bench", "stop")}data: [DONE]\n\n`);
      state.sent = [];
      for (let i = 0; i < WORDS && !res.destroyed; i++) {
        res.write(chunk(`w${i} `));
        state.sent.push(Date.now());
        await new Promise((r) => setTimeout(r, EVERY_MS));
      }
      res.end(`${chunk("", "stop")}data: [DONE]\n\n`);
    });
  });
  return new Promise<{ url: string; state: typeof state; close(): void }>((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, state, close: () => server.close() }));
  });
}

const launchArgs = () => {
  const project = base.projects?.[0]?.use?.launchOptions;
  return { executablePath: process.env.CHROMIUM_PATH ?? project?.executablePath, args: project?.args ?? [] };
};

test("streamed text lost when the browser is killed", async ({ baseURL }) => {
  test.setTimeout(240_000);
  const server = await startServer();
  const losses: number[] = [];
  const sendLosses: number[] = [];
  const storedWords: string[] = [];
  try {
    for (let run = 0; run < 3; run++) {
      const profile = mkdtempSync(join(process.env.TMPDIR ?? "/tmp", "tabcode-crash-"));
      try {
        const ctx = await chromium.launchPersistentContext(profile, { ...launchArgs(), headless: true, baseURL });
        const page = ctx.pages()[0] ?? (await ctx.newPage());
        // Chromium's processes for this profile, found now so the kill itself is instant.
        const pidsOf = () => execFileSync("pgrep", ["-f", profile]).toString().trim().split(/\s+/).filter(Boolean);
        await page.goto("/");
        await page.getByRole("navigation", { name: "Sessions" }).waitFor();
        const sid = await page.evaluate(async (baseURL) => {
          const t = (globalThis as unknown as { __tabcode: { settings: { get(): Record<string, unknown>; set(v: unknown): Promise<void> }; sessions: { createSession(): Promise<{ id: string }> } } }).__tabcode;
          await t.settings.set({ ...t.settings.get(), provider: "openai-compatible", baseURL, modelID: "gpt-4o-mini", apiKey: "sk-bench" });
          return (await t.sessions.createSession()).id;
        }, server.url);
        await page.goto(`/#/s/${sid}`);
        // The app's receipt time of each word, as it happens.
        const received: number[] = [];
        page.on("console", (m) => {
          const r = /^live (\d+) (\d+)$/.exec(m.text());
          if (r) received[Number(r[2])] ??= Number(r[1]);
        });
        await page.evaluate(() => {
          const t = (globalThis as unknown as { __tabcode: { bus: { subscribe(l: (e: { type: string; part?: { type: string; text?: string } }) => void): unknown } } }).__tabcode;
          let last = -1;
          t.bus.subscribe((e) => {
            if (e.type !== "part.live" || e.part?.type !== "text") return;
            const words = [...(e.part.text ?? "").matchAll(/w(\d+) /g)];
            const now = Date.now();
            for (const w of words.slice(last + 1)) console.log(`live ${now} ${w[1]}`);
            last = words.length - 1;
          });
        });
        await page.getByRole("textbox", { name: "Message" }).fill("stream for the crash");
        await page.getByRole("button", { name: "Send" }).click();
        const prefound = pidsOf();

        // Kill somewhere in the middle of the stream (a different point each run).
        const at = 400 + run * 500;
        while (server.state.sent.length < at) await new Promise((r) => setTimeout(r, 2));
        const pids = prefound;
        const killedAt = Date.now();
        for (const pid of pids) {
          try {
            process.kill(Number(pid), "SIGKILL");
          } catch {
            // Already gone with its parent.
          }
        }
        const sent = [...server.state.sent];
        // Renderers started after the first look are found (and killed) now; the stream has already lost its page.
        for (const pid of (() => {
          try {
            return pidsOf();
          } catch {
            return [];
          }
        })())
          try {
            process.kill(Number(pid), "SIGKILL");
          } catch {
            // Gone.
          }
        await ctx.close().catch(() => undefined);

        const again = await chromium.launchPersistentContext(profile, { ...launchArgs(), headless: true, baseURL });
        const p2 = again.pages()[0] ?? (await again.newPage());
        await p2.goto("/");
        await p2.getByRole("navigation", { name: "Sessions" }).waitFor();
        const text = await p2.evaluate(async (id) => {
          const t = (globalThis as unknown as { __tabcode: { store: { messages(id: string): Promise<{ parts: { type: string; text?: string }[] }[]> } } }).__tabcode;
          const msgs = await t.store.messages(id);
          return msgs.flatMap((m) => m.parts).filter((p) => p.type === "text").map((p) => p.text ?? "").join("\n");
        }, sid);
        await again.close();
        const words = [...text.matchAll(/w(\d+) /g)].map((m) => Number(m[1]));
        const stored = words.length ? Math.max(...words) + 1 : 0;
        storedWords.push(`${stored}/${received.length}/${sent.length}`);
        const firstSent = sent[stored];
        sendLosses.push(firstSent === undefined ? 0 : Math.max(0, killedAt - firstSent));
        const firstReceived = received[stored];
        losses.push(firstReceived === undefined ? 0 : Math.max(0, killedAt - firstReceived));
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    }
  } finally {
    server.close();
  }
  printRows("crash loss", [
    ["streamed text lost when the browser is killed (3 runs)", summary(losses)],
    ["same, counted from the server's send times (adds the browser's backlog)", summary(sendLosses)],
    ["words stored / received / sent at the kill", storedWords.join(", ")],
  ]);
});
