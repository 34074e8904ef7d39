/**
 * A connection to the model provider opened while the user types, so the first request does not pay
 * for DNS, TCP and TLS after Send (on a real network one to three round trips: often 100–300 ms, more
 * than everything tabcode does between the click and the request).
 *
 * It is a `<link rel="preconnect" crossorigin>`: the browser opens the socket and sends nothing over it
 * (no key, no request). `crossorigin` (anonymous) matches the model Worker's requests, which carry no
 * credentials; a Worker's request uses the page's connection pool. Browsers close a preconnected socket
 * that nothing used after about ten seconds, so while the user keeps typing the hint is given again at
 * most every `PRECONNECT_EVERY_MS`. Only when a message is being written: merely opening tabcode
 * (browsing history, offline) contacts no provider.
 */
import type { ModelConfig } from "../core/ports/llm";
import { presetOf } from "../core/providers";

export const PRECONNECT_EVERY_MS = 10_000;

/** The origin the configured provider's requests go to (`undefined` for the demo, or a base URL that is not http(s)). */
export function providerOrigin(config: Pick<ModelConfig, "provider" | "baseURL">): string | undefined {
  if (config.provider === "demo") return undefined;
  const base = config.baseURL?.trim() || presetOf(config.provider)?.baseURL;
  if (!base) return undefined;
  try {
    const url = new URL(base);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The part of `document` the hint needs. */
export interface HeadSource {
  createElement(tag: "link"): HTMLLinkElement;
  readonly head: { appendChild(node: Node): unknown } | null;
}

/** Returns `preconnect(config)`: hints a connection to `config`'s provider, at most once per origin every `PRECONNECT_EVERY_MS`. */
export function preconnector(doc: () => HeadSource | undefined, now: () => number = Date.now): (config: Pick<ModelConfig, "provider" | "baseURL">) => void {
  let link: HTMLLinkElement | undefined;
  let origin: string | undefined;
  let last = Number.NEGATIVE_INFINITY;
  return (config) => {
    const next = providerOrigin(config);
    const t = now();
    if (!next || (next === origin && t - last < PRECONNECT_EVERY_MS)) return;
    const d = doc();
    if (!d?.head) return;
    // A new element each time: the browser acts on a hint when it is inserted.
    link?.remove();
    link = d.createElement("link");
    link.rel = "preconnect";
    link.href = next;
    link.crossOrigin = "anonymous";
    d.head.appendChild(link);
    origin = next;
    last = t;
  };
}

/** The page's preconnector (a no-op outside a document). */
export const preconnectProvider = preconnector(() => (typeof document !== "undefined" ? document : undefined));
