/**
 * WebContainer needs a cross-origin isolated page; nothing else in tabcode does, and isolation costs
 * every cold open (Chromium commits an isolated page only in a fresh process of its own, ~60–160 ms).
 * So the page is isolated only at `<base>isolated/` (the servers' rule: scripts/isolation-headers.mjs;
 * offline, the service worker adds the headers: public/sw-routes.js). When the user has chosen
 * WebContainer, the app moves itself there: same origin, so the same sessions, settings and service
 * worker. A flag in localStorage lets index.html's first script move before anything else loads; the
 * settings, read at start-up, are the truth and keep the flag in step.
 */
import type { SandboxPreference } from "../adapters/sandbox/choose";

/** The directory under the app's base whose page is isolated (the servers and the service worker repeat it). */
export const ISOLATED_DIR = "isolated/";
/** Set ("1") while the sandbox preference is WebContainer; read by index.html's first script. */
export const ISOLATE_FLAG = "tabcode:isolate";

export interface PageAddress {
  origin: string;
  pathname: string;
  search: string;
  hash: string;
}

/** Whether the page is the isolated one (`base`: the app's base path, ending in "/"). */
export function onIsolatedPage(pathname: string, base: string): boolean {
  return pathname === `${base}${ISOLATED_DIR}` || pathname === `${base}${ISOLATED_DIR}index.html`;
}

/** The app's own address without the isolated directory: what a share link or a bookmark should name. */
export function appRoot(origin: string, base: string): string {
  return `${origin}${base}`;
}

/**
 * Where the page must go for this sandbox preference, if anywhere: WebContainer on a page that is not
 * isolated moves to the isolated page, with the same query and route. Already there but still not
 * isolated (a server without the headers), it stays: the sandbox then says why WebContainer is missing.
 */
export function isolationMove(pref: SandboxPreference, isolated: boolean, at: PageAddress, base: string): string | undefined {
  if (pref !== "webcontainer" || isolated || onIsolatedPage(at.pathname, base)) return undefined;
  return `${at.origin}${base}${ISOLATED_DIR}${at.search}${at.hash}`;
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
