import { describe, expect, it } from "vitest";
import { listModels } from "./list-models";

function fake(status: number, body: unknown) {
  const calls: { url: string; headers: Headers }[] = [];
  const f = async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), headers: new Headers(init?.headers) });
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  };
  return { f: f as typeof fetch, calls };
}

describe("listModels", () => {
  it("OpenAI-style list with the key as a bearer token, sorted", async () => {
    const { f, calls } = fake(200, { object: "list", data: [{ id: "gpt-5-mini" }, { id: "gpt-4.1" }] });
    expect(await listModels({ provider: "openai-compatible", baseURL: "http://localhost:11434/v1/", apiKey: "k-123" }, f)).toEqual({ ok: true, ids: ["gpt-4.1", "gpt-5-mini"] });
    expect(calls[0]?.url).toBe("http://localhost:11434/v1/models");
    expect(calls[0]?.headers.get("authorization")).toBe("Bearer k-123");
  });

  it("a base URL without its scheme is refused before anything is sent (the key would go to the page's own server)", async () => {
    const { f, calls } = fake(200, { data: [{ id: "x" }] });
    for (const baseURL of ["api.openai.com/v1", "ftp://api.openai.com/v1", "/v1"]) {
      const r = await listModels({ provider: "openai", baseURL, apiKey: "sk-secret" }, f);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/must start with|not a full web address/);
    }
    expect(calls).toHaveLength(0);
  });

  it("no key → no Authorization header (local servers)", async () => {
    const { f, calls } = fake(200, { data: [{ id: "llama3.1:8b" }] });
    await listModels({ provider: "openai-compatible", baseURL: "http://localhost:11434/v1" }, f);
    expect(calls[0]?.headers.get("authorization")).toBeNull();
  });

  it("Anthropic: x-api-key, version and the browser-access header", async () => {
    const { f, calls } = fake(200, { data: [{ id: "claude-sonnet-4-5-20250929", type: "model" }] });
    expect(await listModels({ provider: "anthropic", apiKey: "sk-ant-1" }, f)).toEqual({ ok: true, ids: ["claude-sonnet-4-5-20250929"] });
    expect(calls[0]?.url).toBe("https://api.anthropic.com/v1/models?limit=1000");
    expect(calls[0]?.headers.get("x-api-key")).toBe("sk-ant-1");
    expect(calls[0]?.headers.get("anthropic-dangerous-direct-browser-access")).toBe("true");
    expect(calls[0]?.headers.get("authorization")).toBeNull();
  });

  it("Gemini: models/… names, key in x-goog-api-key (never in the URL)", async () => {
    const { f, calls } = fake(200, { models: [{ name: "models/gemini-2.5-flash" }] });
    expect(await listModels({ provider: "google", apiKey: "AIza-1" }, f)).toEqual({ ok: true, ids: ["gemini-2.5-flash"] });
    expect(calls[0]?.url).not.toContain("AIza-1");
    expect(calls[0]?.headers.get("x-goog-api-key")).toBe("AIza-1");
  });

  it("failures are words, with the key scrubbed", async () => {
    const { f } = fake(401, { error: { message: "Incorrect API key provided: sk-secret-0123456789abcdef" } });
    const r = await listModels({ provider: "openai", apiKey: "sk-secret-0123456789abcdef" }, f);
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).toContain("HTTP 401");
    expect(JSON.stringify(r)).not.toContain("sk-secret-0123456789abcdef");
    // The provider's own words, not its JSON.
    expect(r).toMatchObject({ message: expect.stringMatching(/^The provider refused the API key for the model list \(HTTP 401: “Incorrect API key provided: .*”\)\. Check the key\.$/) });
    expect(r.ok ? "" : r.message).not.toContain("{");
    // No key at all: the server asks for one.
    const keyless = await listModels({ provider: "openai-compatible", baseURL: "http://localhost:8080/v1" }, fake(401, { error: { message: "Unauthorized" } }).f);
    expect(keyless).toEqual({ ok: false, message: "The server asks for an API key to list its models (HTTP 401: “Unauthorized”). Add the key in Settings." });
    const missing = await listModels({ provider: "openai-compatible", baseURL: "http://localhost:8080/v1" }, fake(404, { detail: "Not Found" }).f);
    expect(missing).toEqual({ ok: false, message: "This server has no model list at http://localhost:8080/v1/models (HTTP 404: “Not Found”). Type the model name instead, or check the base URL." });
    const down = await listModels({ provider: "openai-compatible", baseURL: "http://localhost:1/v1" }, (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch);
    expect(down).toMatchObject({ ok: false, message: expect.stringContaining("OLLAMA_ORIGINS") });
    expect(await listModels({ provider: "demo" }, fake(200, {}).f)).toMatchObject({ ok: false });
  });
});
