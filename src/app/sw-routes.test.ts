import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

type Install = { addRoutes?: (rules: unknown) => Promise<void>; waitUntil(p: Promise<unknown>): void };

/** Loads public/sw-routes.js as the service worker would and fires its install event. */
async function install(scope: string, addRoutes?: Install["addRoutes"]): Promise<{ waited: unknown[] }> {
  let handler: ((e: Install) => void) | undefined;
  const self = {
    registration: { scope },
    addEventListener: (type: string, h: typeof handler) => {
      if (type === "install") handler = h;
    },
  };
  runInNewContext(readFileSync(new URL("../../public/sw-routes.js", import.meta.url), "utf8"), { self, URL });
  const waited: Promise<unknown>[] = [];
  handler?.({ addRoutes, waitUntil: (p) => waited.push(p) });
  return { waited: await Promise.all(waited) };
}

describe("the service worker's static routes", () => {
  it("sends GETs of the hashed build files under the scope to Workbox's precache, and races a page load against a stopped worker", async () => {
    const rules: unknown[] = [];
    await install("https://tabcode.example/app/", async (r) => void rules.push(r));
    expect(rules).toEqual([
      [
        { condition: { urlPattern: "/app/assets/*", requestMethod: "GET" }, source: { cacheName: "workbox-precache-v2-https://tabcode.example/app/" } },
        { condition: { requestMode: "navigate", requestMethod: "GET", runningStatus: "not-running" }, source: "race-network-and-fetch-handler" },
      ],
    ]);
  });

  it("does nothing where the browser has no static routing, and a refused rule does not fail the install", async () => {
    await expect(install("https://tabcode.example/")).resolves.toEqual({ waited: [] });
    await expect(install("https://tabcode.example/", () => Promise.reject(new TypeError("unsupported condition")))).resolves.toEqual({ waited: [undefined] });
  });
});
