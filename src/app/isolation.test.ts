import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { ISOLATED_DIR as SERVER_DIR, isIsolatedPath, isolationHeaders } from "../../scripts/isolation-headers.mjs";
import { ISOLATE_FLAG, ISOLATED_DIR, appRoot, isolationMove, onIsolatedPage, syncIsolateFlag } from "./isolation";

const at = (pathname: string, search = "", hash = "") => ({ origin: "https://tabcode.example", pathname, search, hash });

class MemoryStorage {
  readonly items = new Map<string, string>();
  writes = 0;
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => {
    this.writes++;
    this.items.set(k, v);
  };
  removeItem = (k: string) => {
    this.writes++;
    this.items.delete(k);
  };
}

describe("the isolated page", () => {
  it("is the only page the servers isolate; scripts and workers keep the headers, so they start from either page", () => {
    const isolated = { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" };
    expect(isolationHeaders("/", true)).not.toHaveProperty("Cross-Origin-Opener-Policy");
    expect(isolationHeaders("/", true)).not.toHaveProperty("Cross-Origin-Embedder-Policy");
    expect(isolationHeaders("/index.html", true)).toEqual({ "Cross-Origin-Resource-Policy": "same-origin", "X-Content-Type-Options": "nosniff" });
    expect(isolationHeaders("/some/deep/link", true)).not.toHaveProperty("Cross-Origin-Opener-Policy");
    for (const page of ["/isolated/", "/isolated", "/isolated/index.html"]) expect(isolationHeaders(page, true)).toMatchObject(isolated);
    for (const file of ["/assets/index-abc.js", "/sw.js", "/assets/bash.worker-x.js", "/favicon.svg"]) expect(isolationHeaders(file, false)).toMatchObject(isolated);
    // Under another base, the directory is the base's.
    expect(isIsolatedPath("/app/isolated/", "/app/")).toBe(true);
    expect(isIsolatedPath("/isolated/", "/app/")).toBe(false);
    expect(isIsolatedPath("/isolatedness", "/")).toBe(false);
  });

  it("moves a page that is not isolated there when WebContainer is chosen, keeping the query and the route, and never loops", () => {
    expect(isolationMove("webcontainer", false, at("/", "?shared=abc", "#/s/s1"), "/")).toBe("https://tabcode.example/isolated/?shared=abc#/s/s1");
    expect(isolationMove("webcontainer", false, at("/app/", "", "#/"), "/app/")).toBe("https://tabcode.example/app/isolated/#/");
    // Already isolated, or on the isolated page a server did not isolate: stays (the sandbox says why).
    expect(isolationMove("webcontainer", true, at("/isolated/"), "/")).toBeUndefined();
    expect(isolationMove("webcontainer", false, at("/isolated/"), "/")).toBeUndefined();
    // The other choices never move, wherever the page is.
    for (const pref of ["auto", "local"] as const) {
      expect(isolationMove(pref, false, at("/"), "/")).toBeUndefined();
      expect(isolationMove(pref, true, at("/isolated/"), "/")).toBeUndefined();
    }
    expect(onIsolatedPage("/isolated/index.html", "/")).toBe(true);
    expect(onIsolatedPage("/", "/")).toBe(false);
    expect(appRoot("https://tabcode.example", "/app/")).toBe("https://tabcode.example/app/");
  });

  it("keeps index.html's flag in step with the preference, writing only on a change, and survives a storage that refuses", () => {
    const s = new MemoryStorage();
    syncIsolateFlag("webcontainer", s);
    syncIsolateFlag("webcontainer", s);
    expect(s.items.get(ISOLATE_FLAG)).toBe("1");
    expect(s.writes).toBe(1);
    syncIsolateFlag("auto", s);
    syncIsolateFlag("local", s);
    expect(s.items.has(ISOLATE_FLAG)).toBe(false);
    expect(s.writes).toBe(2);
    const refusing = { getItem: () => null, setItem: () => { throw new DOMException("full", "QuotaExceededError"); }, removeItem: () => undefined };
    expect(() => syncIsolateFlag("webcontainer", refusing)).not.toThrow();
    expect(() => syncIsolateFlag("webcontainer", undefined)).not.toThrow();
  });

  it("index.html's first script moves before anything loads, with the same flag and directory, and only when needed", () => {
    const html = readFileSync(new URL("../../index.html", import.meta.url), "utf8");
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(script).toContain(JSON.stringify(ISOLATE_FLAG));
    const run = (flag: string | null, pathname: string, isolated: boolean, base = "/") => {
      const moved: string[] = [];
      const location = { pathname, search: "?q=1", hash: "#/s/abc", replace: (u: string) => moved.push(u) };
      const localStorage = { getItem: (k: string) => (k === ISOLATE_FLAG ? flag : null) };
      runInNewContext((script ?? "").replaceAll("%BASE_URL%", base), { localStorage, location, self: { crossOriginIsolated: isolated } });
      return moved;
    };
    expect(run("1", "/", false)).toEqual([`/${ISOLATED_DIR}?q=1#/s/abc`]);
    expect(run("1", "/app/", false, "/app/")).toEqual([`/app/${ISOLATED_DIR}?q=1#/s/abc`]);
    expect(run("1", `/${ISOLATED_DIR}`, false)).toEqual([]);
    expect(run("1", "/", true)).toEqual([]);
    expect(run(null, "/", false)).toEqual([]);
    // No storage at all (a sandboxed frame): the script must not throw.
    expect(() => runInNewContext(script ?? "", { location: {}, self: {} })).not.toThrow();
  });

  it("the servers, the service worker and the app name the same directory", () => {
    expect(SERVER_DIR).toBe(ISOLATED_DIR);
    expect(readFileSync(new URL("../../public/sw-routes.js", import.meta.url), "utf8")).toContain(`const ISOLATED_DIR = ${JSON.stringify(ISOLATED_DIR)};`);
    expect(readFileSync(new URL("../../public/_headers", import.meta.url), "utf8")).toContain(`\n/${ISOLATED_DIR}*\n  Cross-Origin-Opener-Policy: same-origin\n  Cross-Origin-Embedder-Policy: require-corp\n`);
  });
});
