/**
 * Test-side helpers for talking to the mock server directly (Node fetch): post a model request
 * and split an SSE body into events. Used by the mock's own spec; app specs go through the app.
 */
import type { Frame } from "./sse";

export type { Frame } from "./sse";

/** Splits an SSE body into events (`event:` and `data:` lines; comments and blank lines ignored). */
export function parseSse(body: string): Frame[] {
  const frames: Frame[] = [];
  for (const block of body.split(/\n\n/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (data.length > 0)
      frames.push(event === undefined ? { data: data.join("\n") } : { event, data: data.join("\n") });
  }
  return frames;
}

/** Parses a frame's JSON payload as a plain object, or throws with the frame in the message. */
export function json(frame: Frame | undefined): Record<string, unknown> {
  if (frame === undefined) throw new Error("no frame");
  const v: unknown = JSON.parse(frame.data);
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error(`not an object: ${frame.data}`);
  return v as Record<string, unknown>;
}

/** POSTs a JSON body with a bearer key, as the OpenAI clients do. */
export function post(
  url: string,
  body: unknown,
  init: { apiKey?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${init.apiKey ?? "sk-test-0123456789abcdef"}`,
    },
    body: JSON.stringify(body),
    signal: init.signal,
  });
}

/** Reads SSE events from a streaming response as they arrive. */
export async function* readFrames(res: Response): AsyncGenerator<Frame> {
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut = buffer.indexOf("\n\n");
    while (cut !== -1) {
      yield* parseSse(buffer.slice(0, cut + 2));
      buffer = buffer.slice(cut + 2);
      cut = buffer.indexOf("\n\n");
    }
  }
}
