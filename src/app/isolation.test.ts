import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { ISOLATED_DIR as SERVER_DIR, isIsolatedPath, isolationHeaders } from "../../scripts/isolation-headers.mjs";
import { ISOLATE_FLAG, ISOLATED_DIR, LAUNCH_PARAM, appRoot, isolationMove, onIsolatedPage, syncIsolateFlag } from "./isolation";
import { webManifest } from "../../build-plugins/web-manifest";

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

  it("moves a page that is not isolated there when WebContainer is chosen, and back when not, keeping the query and the route; never loops", () => {
    expect(isolationMove("webcontainer", false, at("/", "?shared=abc", "#/s/s1"), "/")).toBe("https://tabcode.example/isolated/?shared=abc#/s/s1");
    expect(isolationMove("webcontainer", false, at("/app/", "", "#/"), "/app/")).toBe("https://tabcode.example/app/isolated/#/");
    // Already isolated, or on the isolated page a server did not isolate: stays (the sandbox says why).
    expect(isolationMove("webcontainer", true, at("/isolated/"), "/")).toBeUndefined();
    expect(isolationMove("webcontainer", false, at("/isolated/"), "/")).toBeUndefined();
    expect(isolationMove("webcontainer", false, at("/isolated"), "/")).toBeUndefined();
    expect(isolationMove("webcontainer", true, at("/"), "/")).toBeUndefined();
    // The other choices leave the isolated page for the plain one, and stay on the plain one.
    for (const pref of ["auto", "local"] as const) {
      expect(isolationMove(pref, true, at("/isolated/", "?x=1", "#/s/s1"), "/")).toBe("https://tabcode.example/?x=1#/s/s1");
      expect(isolationMove(pref, false, at("/app/isolated", "", "#/"), "/app/")).toBe("https://tabcode.example/app/#/");
      expect(isolationMove(pref, false, at("/"), "/")).toBeUndefined();
      expect(isolationMove(pref, true, at("/"), "/")).toBeUndefined();
    }
    // Whatever a move decides, the page it lands on decides to stay (no to and fro).
    for (const pref of ["auto", "local", "webcontainer"] as const)
      for (const start of ["/", "/isolated/", "/isolated", "/isolated/deep"])
        for (const serverIsolates of [true, false]) {
          const isolatedAt = (path: string) => serverIsolates && onIsolatedPage(path, "/");
          const to = isolationMove(pref, isolatedAt(start), at(start), "/");
          if (to === undefined) continue;
          const path = new URL(to).pathname;
          expect([pref, start, serverIsolates, isolationMove(pref, isolatedAt(path), at(path), "/")]).toEqual([pref, start, serverIsolates, undefined]);
        }
    // A launch with files stays: its files are handed to this very page.
    expect(isolationMove("webcontainer", false, at("/", `?${LAUNCH_PARAM}=files`), "/")).toBeUndefined();
    expect(isolationMove("auto", true, at("/isolated/", `?${LAUNCH_PARAM}=files`), "/")).toBeUndefined();
    expect(webManifest.file_handlers?.[0]?.action).toBe(`./?${LAUNCH_PARAM}=files`);
    expect(onIsolatedPage("/isolated/index.html", "/")).toBe(true);
    expect(onIsolatedPage("/isolatedness", "/")).toBe(false);
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
    const run = (flag: string | null, pathname: string, isolated: boolean, base = "/", search = "?q=1") => {
      const moved: string[] = [];
      const location = { pathname, search, hash: "#/s/abc", replace: (u: string) => moved.push(u) };
      const localStorage = { getItem: (k: string) => (k === ISOLATE_FLAG ? flag : null) };
      const self: { crossOriginIsolated: boolean; __tabcodeLeaving?: boolean } = { crossOriginIsolated: isolated };
      runInNewContext((script ?? "").replaceAll("%BASE_URL%", base), { localStorage, location, self });
      // The app's entry starts nothing on a page that leaves (src/main.tsx).
      expect(self.__tabcodeLeaving === true).toBe(moved.length > 0);
      return moved;
    };
    expect(run("1", "/", false)).toEqual([`/${ISOLATED_DIR}?q=1#/s/abc`]);
    expect(run("1", "/app/", false, "/app/")).toEqual([`/app/${ISOLATED_DIR}?q=1#/s/abc`]);
    expect(run("1", "/some/deep/link", false)).toEqual([`/${ISOLATED_DIR}?q=1#/s/abc`]);
    for (const there of [`/${ISOLATED_DIR}`, "/isolated", "/isolated/index.html"]) expect(run("1", there, false)).toEqual([]);
    expect(run("1", "/", true)).toEqual([]);
    expect(run(null, "/", false)).toEqual([]);
    expect(run("1", "/", false, "/", `?${LAUNCH_PARAM}=files`)).toEqual([]);
    expect(run("1", "/", false, "/", `?a=1&${LAUNCH_PARAM}`)).toEqual([]);
    expect(run("1", "/", false, "/", "?launcher=1")).toEqual([`/${ISOLATED_DIR}?launcher=1#/s/abc`]);
    // No storage at all (a sandboxed frame): the script must not throw.
    expect(() => runInNewContext(script ?? "", { location: {}, self: {} })).not.toThrow();
    // It leaves no names behind on the page.
    const page: Record<string, unknown> = { localStorage: { getItem: () => null }, location: { pathname: "/", search: "" }, self: {} };
    runInNewContext(script ?? "", page);
    expect(Object.keys(page).sort()).toEqual(["localStorage", "location", "self"]);
  });

  it("the servers, the service worker and the app name the same directory", () => {
    expect(SERVER_DIR).toBe(ISOLATED_DIR);
    expect(readFileSync(new URL("../../public/sw-routes.js", import.meta.url), "utf8")).toContain(`const ISOLATED_DIR = ${JSON.stringify(ISOLATED_DIR)};`);
    expect(readFileSync(new URL("../../public/_headers", import.meta.url), "utf8")).toContain(`\n/${ISOLATED_DIR}*\n  Cross-Origin-Opener-Policy: same-origin\n  Cross-Origin-Embedder-Policy: require-corp\n`);
  });
});
