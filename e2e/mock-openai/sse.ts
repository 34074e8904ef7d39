/**
 * Server-sent-event writing for the mock server, including the scripted transport faults:
 * an abrupt cut, an invalid JSON event, and a stream that stops but never closes.
 */
import type { ServerResponse } from "node:http";
import type { Fault } from "./script";

/** One SSE event: `event:` line (Responses API only) and `data:` payload. */
export interface Frame {
  event?: string;
  data: string;
}

/** Per-server counters for realistic, deterministic ids (`call_mock_1`, `resp_mock_2`…). */
export class Ids {
  private n = 0;
  next(prefix: string): string {
    this.n += 1;
    return `${prefix}_${this.n.toString().padStart(4, "0")}`;
  }
}

/** Serialises one frame in SSE wire format. */
export function encodeFrame(f: Frame): string {
  return f.event === undefined ? `data: ${f.data}\n\n` : `event: ${f.event}\ndata: ${f.data}\n\n`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.writableEnded) return resolve();
    res.write(text, () => resolve());
  });
}

/** How a stream should be written. */
export interface StreamPlan {
  frames: readonly Frame[];
  fault: Fault;
  /** The invalid event inserted by a `malformed` fault. */
  malformed: Frame;
  delayMs: number;
}

/**
 * Writes an SSE response frame by frame. Resolves when the response is finished, cut, or (for a
 * hang) when the client disconnects. Stops early if the client goes away.
 */
export async function writeStream(res: ServerResponse, plan: StreamPlan): Promise<void> {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "x-request-id": `req_mock_${Date.now().toString(36)}`,
  });
  res.flushHeaders();
  const { fault } = plan;
  let sent = 0;
  for (const frame of plan.frames) {
    if (res.destroyed) return;
    if (fault.kind === "cut" && sent >= fault.after) return cut(res);
    if (fault.kind === "hang" && sent >= fault.after) return hang(res);
    if (fault.kind === "malformed" && sent === fault.after) await write(res, encodeFrame(plan.malformed));
    if (sent > 0 && plan.delayMs > 0) await sleep(plan.delayMs);
    await write(res, encodeFrame(frame));
    sent += 1;
  }
  if (fault.kind === "cut") return cut(res);
  if (fault.kind === "hang") return hang(res);
  res.end();
}

/** Destroys the socket after what was written so far has been flushed. */
function cut(res: ServerResponse): void {
  res.socket?.destroy();
  res.destroy();
}

/** Leaves the response open until the client (or the server's close) ends the connection. */
function hang(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.once("close", () => resolve());
  });
}
