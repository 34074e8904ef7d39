/**
 * A scripted OpenAI-compatible server for end-to-end tests. It listens on 127.0.0.1 (random port),
 * answers `POST /v1/chat/completions`, `POST /v1/responses` and `GET /v1/models` with CORS for
 * browser callers, consumes one scripted turn per model request, and records every request so
 * tests can assert what the app sent. It runs in the Playwright worker process: tests drive it
 * by calling `setScript` directly.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chatBody, chatFrames, chatMalformedFrame } from "./chat";
import { type Api, errorResponse } from "./errors";
import { responsesBody, responsesFrames, responsesMalformedFrame } from "./responses";
import { DEFAULT_TURN, resolveTurn, type Script, type Turn, usageOf } from "./script";
import { Ids, writeStream } from "./sse";
import { type ReplayFormat, sseFrames } from "../../src/testing/replay";

export type { Script, Turn } from "./script";

/** One request the mock received (CORS preflights are counted in `preflights`, not recorded here). */
export interface RecordedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Request headers, names lower-cased (includes `authorization`). */
  headers: Record<string, string>;
  /** Parsed JSON body; `undefined` when the body was empty or not JSON. */
  body: unknown;
  /** The body as received. */
  rawBody: string;
  /** When (`Date.now()`) the connection that carried the request was accepted. */
  connectedAt: number;
}

/** A running mock server. */
export interface MockOpenAI {
  /** Origin, e.g. `http://127.0.0.1:43123`. */
  url: string;
  /** What the app's "base URL" setting should hold: `${url}/v1`. */
  baseURL: string;
  port: number;
  /** Replaces the queue of turns (and keeps the recorded requests). */
  setScript(s: Script): void;
  /** Appends turns to the queue. */
  enqueue(...turns: Turn[]): void;
  /** Turns not consumed yet. */
  remaining(): number;
  /** Empties the queue, the recorded requests and connections, sets `preflights` to 0. */
  reset(): void;
  /** Live list of received requests, oldest first. */
  readonly requests: RecordedRequest[];
  /** Model requests only (chat completions and responses, without title requests), oldest first. */
  modelRequests(): RecordedRequest[];
  /** Number of compaction summary requests answered. */
  readonly summaryRequests: number;
  /** Number of CORS preflights answered. */
  readonly preflights: number;
  /** When (`Date.now()`) each connection was accepted, oldest first (a browser's preconnect opens one before any request). */
  readonly connections: number[];
  /** Closes the connections that carry no request now (keep-alive sockets the browser would reuse). */
  closeIdleConnections(): void;
  close(): Promise<void>;
}

/** Headers the OpenAI SDKs and the AI SDK send from a browser; preflights also reflect whatever is asked. */
const ALLOWED_HEADERS = [
  "authorization",
  "content-type",
  "accept",
  "openai-organization",
  "openai-project",
  "openai-beta",
  "idempotency-key",
  "user-agent",
  "x-api-key",
  "x-stainless-arch",
  "x-stainless-async",
  "x-stainless-lang",
  "x-stainless-os",
  "x-stainless-package-version",
  "x-stainless-retry-count",
  "x-stainless-runtime",
  "x-stainless-runtime-version",
  "x-stainless-timeout",
  "x-stainless-helper-method",
];

const MODELS = ["gpt-4o-mini", "gpt-4.1", "gpt-5-mini", "o4-mini"];

function corsHeaders(req: IncomingMessage): Record<string, string> {
  const asked = (req.headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "");
  const allow = [...new Set([...ALLOWED_HEADERS, ...asked])];
  const headers: Record<string, string> = {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": allow.join(", "),
    "access-control-allow-methods": "POST, GET, OPTIONS",
    "access-control-max-age": "600",
    "access-control-expose-headers": "retry-after, retry-after-ms, x-request-id",
    "cross-origin-resource-policy": "cross-origin",
  };
  if (req.headers["access-control-request-private-network"] === "true")
    headers["access-control-allow-private-network"] = "true";
  return headers;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  if (raw === "") return { ok: false };
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch {
    return { ok: false };
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function openAIError(message: string, type = "invalid_request_error"): Record<string, unknown> {
  return { error: { message, type, param: null, code: null } };
}

/** Text that marks the app's title-generation request (see src/core/session/title.ts). */
export const TITLE_REQUEST_MARKER = "Generate a title for this conversation";
/** The answer to every title request. */
export const TITLE_TURN: Turn = { text: "Mock session title" };

/** Text that marks the app's compaction (summary) request (see src/core/compaction/summarize.ts). */
export const SUMMARY_REQUEST_MARKER = "You summarise a coding session";
/** The instructions that end a cached-prefix summary request (the chat request re-sent, see process.ts). */
export const CACHED_SUMMARY_MARKER = "Stop working on the task now.";

function isSummaryRequest(raw: string): boolean {
  return raw.includes(SUMMARY_REQUEST_MARKER) || raw.includes(CACHED_SUMMARY_MARKER);
}

/** The answer to every summary request. */
export const SUMMARY_TURN: Turn = {
  text: "## Goal\nRead big.txt repeatedly for the test.\n## Instructions\n(none)\n## Discoveries\nbig.txt is large.\n## Accomplished\nSeveral reads.\n## Relevant files\n- big.txt",
};

/** Anthropic Messages (`/v1/messages`) and Gemini (`/v1beta/models/<id>:streamGenerateContent`, or under `/v1`). */
function isNativePath(path: string): boolean {
  return path === "/v1/messages" || /^\/v1(beta)?\/models\/[^/]+:streamGenerateContent$/.test(path);
}

/** Writes a recorded stream framed for its provider. */
async function writeRecorded(res: ServerResponse, recorded: { format: ReplayFormat; lines: readonly string[] }): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  for (const frame of sseFrames(recorded.lines, recorded.format)) {
    if (res.destroyed) return;
    await new Promise<void>((resolve) => res.write(frame, () => resolve()));
  }
  res.end();
}

/** Starts a mock server on 127.0.0.1 with a free port. */
export async function startMockOpenAI(): Promise<MockOpenAI> {
  let queue: Turn[] = [];
  let preflights = 0;
  let summaries = 0;
  const requests: RecordedRequest[] = [];
  const ids = new Ids();

  async function answerModel(
    api: Api,
    req: IncomingMessage,
    res: ServerResponse,
    body: Record<string, unknown>,
    raw: string,
  ): Promise<void> {
    const model = typeof body.model === "string" ? body.model : "gpt-4o-mini";
    // tabcode's background title requests get their own answer, so they never consume a scripted turn.
    const isTitle = raw.includes(TITLE_REQUEST_MARKER);
    // Compaction summaries likewise get their own answer (and are counted in `summaryRequests`).
    const isSummary = isSummaryRequest(raw);
    if (isSummary) summaries++;
    const turn = resolveTurn(isTitle ? TITLE_TURN : isSummary ? SUMMARY_TURN : (queue.shift() ?? DEFAULT_TURN));
    const promptTokens = Math.ceil(raw.length / 4);
    if (turn.kind === "recorded") return writeRecorded(res, turn.recorded);
    if (turn.kind === "error") {
      const apiKey = (req.headers.authorization ?? "").replace(/^Bearer\s+/i, "");
      const e = errorResponse(turn.error, { api, model, apiKey, promptTokens });
      return sendJson(res, e.status, e.body, e.headers);
    }
    const { reply, fault } = turn;
    const usage = usageOf(reply, raw.length);
    const stream = body.stream === true;
    const chatReq = {
      model,
      includeUsage: isRecord(body.stream_options) && body.stream_options.include_usage === true,
    };
    const include = Array.isArray(body.include) ? body.include : [];
    const respReq = {
      model,
      store: body.store !== false,
      encryptedReasoning: include.includes("reasoning.encrypted_content"),
    };
    if (stream) {
      const frames =
        api === "chat" ? chatFrames(reply, chatReq, usage, ids) : responsesFrames(reply, respReq, usage, ids);
      const malformed = api === "chat" ? chatMalformedFrame(chatReq) : responsesMalformedFrame();
      return writeStream(res, { frames, fault, malformed, delayMs: reply.chunkDelayMs ?? 0 });
    }
    const json = JSON.stringify(
      api === "chat" ? chatBody(reply, chatReq, usage, ids) : responsesBody(reply, respReq, usage, ids),
    );
    switch (fault.kind) {
      case "none":
        return sendJson(res, 200, JSON.parse(json));
      case "malformed":
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(json.slice(0, Math.floor(json.length / 2)));
      case "cut":
        res.writeHead(200, { "content-type": "application/json" });
        res.write(json.slice(0, Math.floor(json.length / 2)), () => res.socket?.destroy());
        return;
      case "hang":
        res.writeHead(200, { "content-type": "application/json" });
        res.flushHeaders();
        return;
    }
  }

  /**
   * Anthropic Messages and Gemini requests: only recorded turns can answer them. Title and summary
   * requests get an error (a title failure never disturbs a session), so they take no scripted turn.
   */
  async function answerNative(res: ServerResponse, raw: string): Promise<void> {
    if (raw.includes(TITLE_REQUEST_MARKER) || isSummaryRequest(raw))
      return sendJson(res, 400, openAIError("mock: no titles or summaries on this provider path"));
    const turn = resolveTurn(queue.shift() ?? DEFAULT_TURN);
    if (turn.kind !== "recorded")
      return sendJson(res, 500, openAIError("mock: only recorded turns answer this provider path", "server_error"));
    return writeRecorded(res, turn.recorded);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [k, v] of Object.entries(corsHeaders(req))) res.setHeader(k, v);
    const method = req.method ?? "GET";
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (method === "OPTIONS") {
      preflights += 1;
      res.writeHead(204, { "content-length": "0" });
      return void res.end();
    }
    const raw = await readBody(req);
    const parsed = parseJson(raw);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    requests.push({ method, path, headers, body: parsed.ok ? parsed.value : undefined, rawBody: raw, connectedAt: accepted.get(req.socket) ?? Number.NaN });

    if (method === "GET" && path === "/v1/models") {
      const created = Math.floor(Date.now() / 1000);
      return sendJson(res, 200, {
        object: "list",
        data: MODELS.map((id) => ({ id, object: "model", created, owned_by: "system" })),
      });
    }
    if (method === "POST" && isNativePath(path)) {
      if (!parsed.ok || !isRecord(parsed.value)) return sendJson(res, 400, openAIError("mock: the body is not JSON"));
      return answerNative(res, raw);
    }
    const api: Api | undefined =
      path === "/v1/chat/completions" ? "chat" : path === "/v1/responses" ? "responses" : undefined;
    if (method !== "POST" || api === undefined)
      return sendJson(res, 404, openAIError(`Invalid URL (${method} ${path})`));
    if (!parsed.ok || !isRecord(parsed.value)) {
      return sendJson(
        res,
        400,
        openAIError(
          "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
        ),
      );
    }
    return answerModel(api, req, res, parsed.value, raw);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, openAIError(`mock server bug: ${String(err)}`, "server_error"));
      else res.destroy();
    });
  });
  const accepted = new WeakMap<object, number>();
  const connections: number[] = [];
  server.on("connection", (socket) => {
    const at = Date.now();
    accepted.set(socket, at);
    connections.push(at);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseURL: `${url}/v1`,
    port,
    setScript: (s) => {
      queue = [...s];
    },
    enqueue: (...turns) => {
      queue.push(...turns);
    },
    remaining: () => queue.length,
    reset: () => {
      queue = [];
      requests.length = 0;
      connections.length = 0;
      preflights = 0;
      summaries = 0;
    },
    requests,
    modelRequests: () =>
      requests.filter(
        (r) =>
          (r.path === "/v1/chat/completions" || r.path === "/v1/responses" || isNativePath(r.path)) &&
          !r.rawBody.includes(TITLE_REQUEST_MARKER) &&
          !isSummaryRequest(r.rawBody),
      ),
    get summaryRequests() {
      return summaries;
    },
    connections,
    closeIdleConnections: () => server.closeIdleConnections(),
    get preflights() {
      return preflights;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
