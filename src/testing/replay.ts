/**
 * Record-replay support (tests only): recorded provider streams, one JSON
 * chunk per line as the AI SDK keeps them (`*.chunks.txt`, see
 * e2e/fixtures/providers/MANIFEST.md), framed back into the wire format of
 * their provider. Used by the adapter's replay tests and the e2e mock server.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Wire framing per family:
 * - `chat`: Chat Completions (`data: {…}` lines, then `data: [DONE]`): OpenAI chat, DeepSeek, Mistral, Groq, OpenRouter, compatible servers.
 * - `responses`: OpenAI/xAI Responses (`event: <type>` + `data: {…}`).
 * - `anthropic`: Anthropic Messages (`event: <type>` + `data: {…}`).
 * - `gemini`: Gemini `streamGenerateContent?alt=sse` (`data: {…}` only).
 */
export type ReplayFormat = "chat" | "responses" | "anthropic" | "gemini";

/** The fixtures folder (relative to the repository root, where tests run). */
export const FIXTURES_DIR = join(process.cwd(), "e2e", "fixtures", "providers");

/** A declared, visible edit of a recorded stream (e.g. the recorded tool name → one of tabcode's tools). */
export type Rewrite = readonly [from: string, to: string];

/** The recorded chunks of `family/file`, one JSON text per entry, with `rewrites` applied to each line. */
export function recordedChunks(path: string, rewrites: readonly Rewrite[] = []): string[] {
  const text = readFileSync(join(FIXTURES_DIR, path), "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => rewrites.reduce((line, [from, to]) => line.split(from).join(to), l));
}

/** The `type` field of a recorded event (Responses and Anthropic name their SSE events by it). */
function eventType(line: string): string | undefined {
  try {
    const v: unknown = JSON.parse(line);
    if (typeof v === "object" && v !== null && "type" in v && typeof v.type === "string") return v.type;
  } catch {
    // A deliberately malformed line is sent as it is.
  }
  return undefined;
}

/** One SSE event per recorded chunk, framed for `format`. */
export function sseFrames(lines: readonly string[], format: ReplayFormat): string[] {
  const frames = lines.map((line) => {
    const type = format === "responses" || format === "anthropic" ? eventType(line) : undefined;
    return type ? `event: ${type}\ndata: ${line}\n\n` : `data: ${line}\n\n`;
  });
  if (format === "chat") frames.push("data: [DONE]\n\n");
  return frames;
}

/** The whole SSE body of a recorded stream. */
export function sseBody(lines: readonly string[], format: ReplayFormat): string {
  return sseFrames(lines, format).join("");
}
