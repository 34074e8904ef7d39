import { describe, expect, it } from "vitest";
import type { ProviderKind } from "../core/providers";
import { PRECONNECT_EVERY_MS, preconnector, providerOrigin } from "./preconnect";

/** A stand-in for `document`: the links it was given, in order, and which are still in the head. */
function fakeDocument() {
  const added: { rel: string; href: string; crossOrigin: string | null; removed: boolean }[] = [];
  const doc = {
    head: { appendChild: (node: unknown) => added.push(node as (typeof added)[number]) },
    createElement: () => {
      const link = {
        rel: "",
        href: "",
        crossOrigin: null as string | null,
        removed: false,
        remove: () => {
          link.removed = true;
        },
      };
      return link as unknown as HTMLLinkElement;
    },
  };
  return { doc, added };
}

describe("providerOrigin", () => {
  it("is the origin of the base URL, or of the preset's when none is set", () => {
    expect(providerOrigin({ provider: "openai", baseURL: undefined })).toBe("https://api.openai.com");
    expect(providerOrigin({ provider: "anthropic", baseURL: "" })).toBe("https://api.anthropic.com");
    expect(providerOrigin({ provider: "google", baseURL: undefined })).toBe("https://generativelanguage.googleapis.com");
    expect(providerOrigin({ provider: "openai-compatible", baseURL: "http://localhost:1234/v1/" })).toBe("http://localhost:1234");
  });

  it("never carries credentials written into a base URL, nor its path or query", () => {
    expect(providerOrigin({ provider: "openai-compatible", baseURL: "https://user:secret@llm.example.com:8443/v1?key=abc" })).toBe("https://llm.example.com:8443");
  });

  it("is undefined for the demo model and for base URLs that are not http(s) or not URLs", () => {
    expect(providerOrigin({ provider: "demo", baseURL: undefined })).toBeUndefined();
    expect(providerOrigin({ provider: "openai-compatible", baseURL: "javascript:alert(1)" })).toBeUndefined();
    expect(providerOrigin({ provider: "openai-compatible", baseURL: "not a url" })).toBeUndefined();
  });

  it("has an origin for every preset but the demo", () => {
    const kinds: ProviderKind[] = ["openai", "anthropic", "google", "deepseek", "mistral", "groq", "xai", "openrouter", "openai-compatible"];
    for (const provider of kinds) expect(providerOrigin({ provider, baseURL: undefined })).toMatch(/^https?:\/\/[^/]+$/);
  });
});

describe("preconnector", () => {
  it("adds one anonymous preconnect link for the provider's origin, and again only after the interval", () => {
    const { doc, added } = fakeDocument();
    let now = 1_000;
    const preconnect = preconnector(() => doc, () => now);
    preconnect({ provider: "openai", baseURL: undefined });
    expect(added).toEqual([expect.objectContaining({ rel: "preconnect", href: "https://api.openai.com", crossOrigin: "anonymous", removed: false })]);
    now += PRECONNECT_EVERY_MS - 1;
    preconnect({ provider: "openai", baseURL: undefined });
    expect(added).toHaveLength(1);
    now += 1;
    preconnect({ provider: "openai", baseURL: undefined });
    expect(added).toHaveLength(2);
    // The old hint leaves the head: one link at a time.
    expect(added.map((l) => l.removed)).toEqual([true, false]);
  });

  it("follows a change of provider at once", () => {
    const { doc, added } = fakeDocument();
    const preconnect = preconnector(() => doc, () => 5);
    preconnect({ provider: "openai", baseURL: undefined });
    preconnect({ provider: "anthropic", baseURL: undefined });
    expect(added.map((l) => l.href)).toEqual(["https://api.openai.com", "https://api.anthropic.com"]);
  });

  it("does nothing for the demo model or without a document", () => {
    const { doc, added } = fakeDocument();
    preconnector(() => doc)({ provider: "demo", baseURL: undefined });
    expect(added).toEqual([]);
    expect(() => preconnector(() => undefined)({ provider: "openai", baseURL: undefined })).not.toThrow();
  });
});
