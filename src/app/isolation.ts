/**
 * WebContainer needs a cross-origin isolated page; nothing else in tabcode does, and isolation costs
 * every cold open (Chromium commits an isolated page only in a fresh process of its own, ~60–160 ms).
 * So the page is isolated only at `<base>isolated/` (the servers' rule: scripts/isolation-headers.mjs;
 * offline, the service worker adds the headers: public/sw-routes.js). The app moves itself there
 * when the user has chosen WebContainer, and back to the plain page when not: same origin, so the
 * same sessions, settings and service worker. A flag in localStorage lets index.html's first script
 * move before anything else loads; the settings, read at start-up, are the truth and keep the flag
 * in step (cleared before a move back, so the two never send the page to and fro).
 */
import type { SandboxPreference } from "../adapters/sandbox/choose";

/** The directory under the app's base whose page is isolated (the servers and the service worker repeat it). */
export const ISOLATED_DIR = "isolated/";
/** Set ("1") while the sandbox preference is WebContainer; read by index.html's first script. */
export const ISOLATE_FLAG = "tabcode:isolate";
/** The query parameter of a launch with files (the manifest's file handler): that page never moves, or the files would be lost. */
export const LAUNCH_PARAM = "launch";

export interface PageAddress {
  origin: string;
  pathname: string;
  search: string;
  hash: string;
}

/** Whether the page is the isolated one, `<base>isolated` or anything under it (`base`: the app's base path, ending in "/"). */
export function onIsolatedPage(pathname: string, base: string): boolean {
  const dir = `${base}${ISOLATED_DIR}`;
  return pathname === dir.slice(0, -1) || pathname.startsWith(dir);
}

/** The app's own address without the isolated directory: what a share link or a bookmark should name. */
export function appRoot(origin: string, base: string): string {
  return `${origin}${base}`;
}

/**
 * Where the page must go for this sandbox preference, if anywhere, with the same query and route:
 * WebContainer on a page that is not isolated moves to the isolated page; any other choice on the
 * isolated page moves back to the plain one. On the isolated page but still not isolated (a server
 * without the headers), it stays: the sandbox then says why WebContainer is missing. A launch with
 * files stays where it is (its files are handed to this very page).
 */
export function isolationMove(pref: SandboxPreference, isolated: boolean, at: PageAddress, base: string): string | undefined {
  if (new URLSearchParams(at.search).has(LAUNCH_PARAM)) return undefined;
  const there = onIsolatedPage(at.pathname, base);
  if (pref === "webcontainer") return isolated || there ? undefined : `${at.origin}${base}${ISOLATED_DIR}${at.search}${at.hash}`;
  return there ? `${appRoot(at.origin, base)}${at.search}${at.hash}` : undefined;
}

/** Where this page must go for `pref` (see `isolationMove`), read from the page itself. */
export function pageMove(pref: SandboxPreference): string | undefined {
  return isolationMove(pref, globalThis.crossOriginIsolated === true, globalThis.location, import.meta.env.BASE_URL);
}

/** Keeps index.html's flag in step with the preference (no storage: the start-up check still moves). */
export function syncIsolateFlag(pref: SandboxPreference, storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | undefined): void {
  try {
    if (pref === "webcontainer") {
      if (storage?.getItem(ISOLATE_FLAG) !== "1") storage?.setItem(ISOLATE_FLAG, "1");
    } else if (storage?.getItem(ISOLATE_FLAG) !== null) storage?.removeItem(ISOLATE_FLAG);
  } catch {
    // Storage refused (quota, privacy settings): the move then happens once the settings are read.
  }
}
