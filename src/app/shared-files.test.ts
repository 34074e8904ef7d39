import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { webManifest } from "../../build-plugins/web-manifest";
import { consumeLaunchFiles, type LaunchQueueLike, type SharedCaches, takeSharedFiles } from "./shared-files";

const SCOPE = "https://tabcode.example/app/";

/** An in-memory CacheStorage with the members the service worker and the page use. */
function fakeCaches() {
  const stores = new Map<string, Map<string, Response>>();
  const open = async (name: string) => {
    const m = stores.get(name) ?? new Map<string, Response>();
    stores.set(name, m);
    return {
      put: async (url: string, r: Response) => void m.set(url, r),
      keys: async () => [...m.keys()].map((u) => new Request(u)),
      match: async (r: Request) => m.get(r.url)?.clone(),
      delete: async (r: Request) => m.delete(r.url),
    };
  };
  return { open, stores } satisfies SharedCaches & { stores: unknown };
}

/** Loads public/share-target-sw.js as the service worker would, returning its fetch handler. */
function serviceWorker(caches: ReturnType<typeof fakeCaches>) {
  let handler: ((e: { request: Request; respondWith(r: Promise<Response>): void }) => void) | undefined;
  const self = {
    registration: { scope: SCOPE },
    addEventListener: (type: string, h: typeof handler) => {
      if (type === "fetch") handler = h;
    },
  };
  runInNewContext(readFileSync(new URL("../../public/share-target-sw.js", import.meta.url), "utf8"), { self, caches, Response, URL, encodeURIComponent, Date, Math });
  return async (request: Request): Promise<Response | undefined> => {
    let answer: Promise<Response> | undefined;
    handler?.({
      request,
      respondWith: (r) => {
        answer = r;
      },
    });
    return answer;
  };
}

function share(files: File[]): Request {
  const form = new FormData();
  for (const f of files) form.append("files", f);
  return new Request(new URL("share-target", SCOPE), { method: "POST", body: form });
}

describe("the installed app's manifest", () => {
  it("opens .db, .jsonl and .json files and takes shared files by POST to the path the service worker serves", () => {
    const accept = Object.values(webManifest.file_handlers?.[0]?.accept ?? {}).flat();
    expect(accept).toEqual(expect.arrayContaining([".db", ".db-wal", ".jsonl", ".json", ".zip"]));
    expect(webManifest.share_target).toMatchObject({ action: "./share-target", method: "POST", enctype: "multipart/form-data" });
    expect([webManifest.share_target?.params.files].flat()[0]?.name).toBe("files");
    expect(readFileSync(new URL("../../vite.config.ts", import.meta.url), "utf8")).toMatch(/importScripts: \[[^\]]*"share-target-sw\.js"/);
  });
});

describe("share target", () => {
  it("the service worker keeps the shared files and redirects; the page takes them once, with names, then they are gone", async () => {
    const caches = fakeCaches();
    const sw = serviceWorker(caches);
    const r = await sw(share([new File(["SQLite format 3\0…"], "opencode.db"), new File(['{"type":"user"}\n'], "session.jsonl", { type: "application/jsonl" })]));
    expect(r?.status).toBe(303);
    const to = new URL(r?.headers.get("location") ?? "");
    expect(to.href.startsWith(SCOPE)).toBe(true);
    const got = await takeSharedFiles(to.search, SCOPE, caches);
    expect(got?.ok).toBe(true);
    if (!got?.ok) return;
    expect(got.files.map((f) => f.path)).toEqual(["opencode.db", "session.jsonl"]);
    expect(await got.files[1]?.file.text()).toBe('{"type":"user"}\n');
    const again = await takeSharedFiles(to.search, SCOPE, caches);
    expect(again).toEqual({ ok: false, error: expect.stringMatching(/are gone.*Share them again/) });
  });

  it("leaves other requests alone and says so in words when a share held no files", async () => {
    const caches = fakeCaches();
    const sw = serviceWorker(caches);
    expect(await sw(new Request(new URL("share-target", SCOPE)))).toBeUndefined();
    expect(await sw(new Request(new URL("other", SCOPE), { method: "POST", body: "x" }))).toBeUndefined();
    const empty = await sw(share([]));
    const search = new URL(empty?.headers.get("location") ?? "").search;
    expect(await takeSharedFiles(search, SCOPE, caches)).toEqual({ ok: false, error: expect.stringMatching(/held no files/) });
    expect(await takeSharedFiles("?x=1", SCOPE, caches)).toBeUndefined();
    expect(await takeSharedFiles("?shared=abc", SCOPE, undefined)).toEqual({ ok: false, error: expect.stringMatching(/did not keep the shared files/) });
  });
});

describe("file handler launch queue", () => {
  function fakeQueue() {
    let consumer: Parameters<LaunchQueueLike["setConsumer"]>[0] | undefined;
    const queue: LaunchQueueLike = {
      setConsumer: (c) => {
        consumer = c;
      },
    };
    return { queue, launch: (files: readonly { getFile(): Promise<File> }[]) => consumer?.({ files }) };
  }

  it("hands the files the app was opened with to Import history; a launch without files does nothing", async () => {
    const { queue, launch } = fakeQueue();
    const got: string[][] = [];
    const errors: string[] = [];
    consumeLaunchFiles(queue, (files) => got.push(files.map((f) => f.path)), (m) => errors.push(m));
    launch([]);
    launch([{ getFile: async () => new File(["x"], "opencode.db") }, { getFile: async () => new File(["{}"], "export.json") }]);
    await new Promise((r) => setTimeout(r, 0));
    expect(got).toEqual([["opencode.db", "export.json"]]);
    launch([{ getFile: () => Promise.reject(new Error("NotAllowedError")) }]);
    await new Promise((r) => setTimeout(r, 0));
    expect(errors).toEqual(["The file this app was opened with could not be read. Open Import history and pick it instead."]);
    consumeLaunchFiles(undefined, () => got.push(["never"]), () => undefined);
    expect(got).toHaveLength(1);
  });
});
