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

  describe("the isolated page", () => {
    type FetchEvent = { request: Request; respondWith(r: Promise<Response>): void; stopImmediatePropagation(): void };
    const scope = "https://tabcode.example/app/";
    const SHELL = `${scope}index.html?__WB_REVISION__=abc`;
    const SCRIPT = `${scope}assets/index-abc.js`;
    const isolatedScript = () => new Response("js", { headers: { "Cross-Origin-Embedder-Policy": "require-corp" } });
    const shell = () => new Response("<!doctype html>shell", { headers: { "content-type": "text/html", "x-content-type-options": "nosniff" } });

    /** Loads the file with `precache` as Workbox's cache (or a cache that fails) and returns its fetch listener's answer to `url`. */
    async function navigate(url: string, precache: Map<string, () => Response> | "failing", init: RequestInit = {}) {
      let handler: ((e: FetchEvent) => void) | undefined;
      const opened: string[] = [];
      const network: string[] = [];
      const self = {
        registration: { scope },
        addEventListener: (type: string, h: typeof handler) => {
          if (type === "fetch") handler = h;
        },
      };
      const caches = {
        open: async (name: string) => {
          opened.push(name);
          if (precache === "failing") throw new DOMException("gone", "UnknownError");
          return {
            keys: async () => [...precache.keys()].map((k) => new Request(k)),
            match: async (key: string | Request, opts?: { ignoreSearch?: boolean }) => {
              const want = typeof key === "string" ? key : key.url;
              const strip = (u: string) => (opts?.ignoreSearch ? u.split("?")[0] : u);
              const hit = [...precache.entries()].find(([k]) => strip(k) === strip(want));
              return hit?.[1]();
            },
          };
        },
      };
      const fetch = async (r: Request) => {
        network.push(r.url);
        return new Response("from the network");
      };
      runInNewContext(readFileSync(new URL("../../public/sw-routes.js", import.meta.url), "utf8"), { self, URL, caches, fetch, Headers, Response });
      const request = new Request(url, init);
      // Node's Request cannot be made with mode "navigate": the listener only reads it.
      Object.defineProperty(request, "mode", { value: init.mode ?? "navigate" });
      let answer: Promise<Response> | undefined;
      let stopped = false;
      handler?.({
        request,
        respondWith: (r) => {
          answer = r;
        },
        stopImmediatePropagation: () => {
          stopped = true;
        },
      });
      return { response: await answer, stopped, opened, network };
    }

    it("is served from the precached shell with the two isolation headers added, before Workbox's route sees it", async () => {
      for (const url of [`${scope}isolated/#/s/abc`, `${scope}isolated`, `${scope}isolated/some/deep/link`]) {
        const r = await navigate(url, new Map([[SHELL, shell], [SCRIPT, isolatedScript]]));
        expect(r.stopped).toBe(true);
        expect(r.opened).toEqual([`workbox-precache-v2-${scope}`]);
        expect(r.response?.status).toBe(200);
        expect(r.response?.headers.get("cross-origin-opener-policy")).toBe("same-origin");
        expect(r.response?.headers.get("cross-origin-embedder-policy")).toBe("require-corp");
        expect(r.response?.headers.get("content-type")).toBe("text/html");
        expect(r.response?.headers.get("x-content-type-options")).toBe("nosniff");
        expect(await r.response?.text()).toBe("<!doctype html>shell");
        expect(r.network).toEqual([]);
      }
    });

    it("stays a plain page where the server does not isolate (its scripts came without COEP: an isolated page could start none of its Workers)", async () => {
      const r = await navigate(`${scope}isolated/`, new Map([[SHELL, shell], [SCRIPT, () => new Response("js")]]));
      expect(r.stopped).toBe(true);
      expect(r.response?.headers.get("cross-origin-opener-policy")).toBeNull();
      expect(r.response?.headers.get("cross-origin-embedder-policy")).toBeNull();
      expect(await r.response?.text()).toBe("<!doctype html>shell");
    });

    it("goes to the network when the shell is not precached yet, or the cache fails", async () => {
      const missing = await navigate(`${scope}isolated/?shared=x`, new Map([[SCRIPT, isolatedScript]]));
      expect(await missing.response?.text()).toBe("from the network");
      expect(missing.network).toEqual([`${scope}isolated/?shared=x`]);
      const failing = await navigate(`${scope}isolated/`, "failing");
      expect(await failing.response?.text()).toBe("from the network");
    });

    it("leaves every other request to the routes after it: the plain page, a deep link, files, a POST", async () => {
      for (const [url, init] of [
        [scope, {}],
        [`${scope}#/s/abc`, {}],
        [`${scope}isolated-notes`, {}],
        [`${scope}isolated/`, { method: "POST", body: "x" }],
        [`${scope}isolated/`, { mode: "cors" }],
      ] as const) {
        const r = await navigate(url, new Map([[SHELL, shell], [SCRIPT, isolatedScript]]), init as RequestInit);
        expect([url, r.response, r.stopped]).toEqual([url, undefined, false]);
      }
    });
  });
});

