/**
 * A provider's redirect is never followed: two real local HTTP servers, the
 * configured one answering 307 to the other; the other must never see the
 * conversation, and the user gets a reason, not a retry loop.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAiSdkLLM } from "./ai-sdk-llm";
import { REDIRECT_REFUSED_MESSAGE, refuseRedirects } from "./refuse-redirects";
import { collect, modelConfig, request } from "./sse-test-helpers";

let configured: Server;
let elsewhere: Server;
let elsewhereHits = 0;
let configuredHits = 0;
let configuredURL = "";

function listen(s: Server): Promise<string> {
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  elsewhere = createServer((req, res) => {
    elsewhereHits++;
    req.resume();
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  const elsewhereURL = await listen(elsewhere);
  configured = createServer((req, res) => {
    configuredHits++;
    req.resume();
    res.writeHead(307, { location: `${elsewhereURL}${req.url ?? "/"}` }).end();
  });
  configuredURL = await listen(configured);
});

afterAll(async () => {
  await new Promise((r) => configured.close(r));
  await new Promise((r) => elsewhere.close(r));
});

describe("provider redirects", () => {
  it("a 307 from the base URL is not followed; the error says why and is not retried", async () => {
    const llm = createAiSdkLLM({});
    const events = await collect(llm.stream(request({ model: modelConfig({ baseURL: `${configuredURL}/v1` }) })));
    const error = events.find((e) => e.type === "error");
    expect(error?.type === "error" && error.error.data.message).toBe(REDIRECT_REFUSED_MESSAGE);
    expect(error?.type === "error" && error.error.data.isRetryable).toBe(false);
    expect(configuredHits).toBe(1);
    expect(elsewhereHits).toBe(0);
  });

  it("ordinary answers pass through unchanged", async () => {
    const ok = refuseRedirects(async () => new Response("fine", { status: 200 }));
    const r = await ok("http://x.test/");
    expect(await r.text()).toBe("fine");
    let seen: RequestInit | undefined;
    await refuseRedirects(async (_i, init) => {
      seen = init;
      return new Response("");
    })("http://x.test/", { method: "POST" });
    expect(seen).toMatchObject({ method: "POST", redirect: "manual" });
  });

  it("a browser's opaque redirect is refused too", async () => {
    const opaque = { type: "opaqueredirect", status: 0, body: null } as unknown as Response;
    const r = await refuseRedirects(async () => opaque)("http://x.test/");
    expect(r.status).toBe(421);
  });
});
