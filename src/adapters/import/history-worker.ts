/**
 * The reader of dropped history text files (Claude Code, Codex, Gemini CLI,
 * OpenCode storage trees), in a Worker: reading, JSON parsing and mapping a
 * large drop take seconds, which on the page would hold its repaint, the
 * progress and the Cancel button.
 */
import type { HistoryRequest, HistoryResponse } from "./history-protocol";
import { serveHistoryReader } from "./history-reader";

const handle = serveHistoryReader((m: HistoryResponse) => (self as unknown as { postMessage(m: HistoryResponse): void }).postMessage(m));

self.onmessage = (e: MessageEvent<HistoryRequest>) => void handle(e.data);
