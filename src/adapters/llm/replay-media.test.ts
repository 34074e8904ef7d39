/**
 * Media a tool read (an image, a PDF) through the real loop, the real
 * conversion (core/conversation/to-model.ts → convert-request.ts) and each
 * preset's own AI SDK package, answered by recorded provider streams
 * (e2e/fixtures/providers, MANIFEST.md): the request after the tool call
 * carries the media in the provider's own tool-result shape, or a text
 * placeholder (never the base64 as text) where the API or model takes none.
 */
import { z } from "../../core/zod";
import { describe, expect, it } from "vitest";
import { mediaPlaceholder } from "../../core/conversation/to-model";
import { defineTool, type Tool } from "../../core/tools/tool";
import { recordedChunks } from "../../testing/replay";
import { replaySession, splitResponses } from "../../testing/replay-harness";

type Obj = Record<string, unknown>;
const arr = (v: unknown) => (Array.isArray(v) ? (v as Obj[]) : []);

/** A 1×1 PNG (the bytes `read` attaches for an image) and a minimal PDF header. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
const PDF = btoa("%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF");

/** Answers the recorded call the way `read` answers for an image (and, with `pdf`, a PDF too). */
function mediaTool(id: string, pdf = false): Tool {
  return defineTool({
    id,
    description: `The recorded ${id} tool`,
    parameters: z.record(z.string(), z.unknown()),
    execute: async () => ({
      title: id,
      output: "Image read successfully",
      attachments: [
        { mime: "image/png", filename: "pixel.png", url: `data:image/png;base64,${PNG}` },
        ...(pdf ? [{ mime: "application/pdf", filename: "spec.pdf", url: `data:application/pdf;base64,${PDF}` }] : []),
      ],
    }),
  });
}

describe("tool-result media reach the model where the provider takes them", () => {
  it("Anthropic: the tool_result holds the text and an image block with the base64 bytes", async () => {
    const r = await replaySession({
      provider: "anthropic",
      modelID: "claude-sonnet-4-5",
      tools: [mediaTool("updateIssueList", true)],
      steps: [
        { format: "anthropic", lines: recordedChunks("anthropic/anthropic-tool-no-args.chunks.txt") },
        { format: "anthropic", lines: recordedChunks("anthropic/anthropic-text.chunks.txt") },
      ],
    });
    expect(r.left).toBe(0);
    const result = arr(r.requests[1]?.body.messages).flatMap((m) => arr(m.content)).find((c) => c.type === "tool_result");
    const content = arr(result?.content);
    expect(content[0]).toMatchObject({ type: "text", text: "Image read successfully" });
    expect(content[1]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } });
    expect(content[2]).toMatchObject({ type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF } });
  });

  it("Gemini: the functionResponse carries the image as inlineData", async () => {
    const r = await replaySession({
      provider: "google",
      modelID: "gemini-3-pro-preview",
      tools: [mediaTool("weather")],
      steps: [
        { format: "gemini", lines: recordedChunks("google/google-tool-call.chunks.txt") },
        { format: "gemini", lines: recordedChunks("google/google-text.chunks.txt") },
      ],
    });
    const response = arr(r.requests[1]?.body.contents)
      .flatMap((c) => arr(c.parts))
      .find((p) => "functionResponse" in p)?.functionResponse as Obj | undefined;
    expect(response?.response).toMatchObject({ content: "Image read successfully" });
    expect(arr(response?.parts)).toEqual([{ inlineData: { mimeType: "image/png", data: PNG } }]);
  });

  it("OpenAI Responses: function_call_output is a list with input_text, input_image and input_file", async () => {
    const [step1, , , last] = splitResponses(recordedChunks("openai-responses/openai-reasoning-encrypted-content.1.chunks.txt"));
    const r = await replaySession({
      provider: "openai",
      modelID: "gpt-5-mini",
      tools: [mediaTool("calculator", true)],
      steps: [
        { format: "responses", lines: step1 ?? [] },
        { format: "responses", lines: last ?? [] },
      ],
    });
    const output = arr(arr(r.requests[1]?.body.input).find((i) => i.type === "function_call_output")?.output);
    expect(output.map((o) => o.type)).toEqual(["input_text", "input_image", "input_file"]);
    expect(output[1]?.image_url).toBe(`data:image/png;base64,${PNG}`);
    expect(output[2]).toMatchObject({ filename: "spec.pdf", file_data: `data:application/pdf;base64,${PDF}` });
  });

  it("Chat Completions (OpenAI-compatible): the tool message is text with a placeholder, never the base64", async () => {
    const r = await replaySession({
      provider: "openai-compatible",
      modelID: "grok-4",
      tools: [mediaTool("weather")],
      steps: [
        { format: "chat", lines: recordedChunks("openai-compatible/xai-tool-call.chunks.txt") },
        { format: "chat", lines: recordedChunks("xai/xai-text.chunks.txt") },
      ],
    });
    const tool = arr(r.requests[1]?.body.messages).find((m) => m.role === "tool");
    expect(tool?.content).toBe(`Image read successfully\n${mediaPlaceholder("image/png", "pixel.png")}`);
    expect(JSON.stringify(r.requests[1]?.body)).not.toContain(PNG);
  });

  it("A text-only model (deepseek-chat) gets the placeholder, though its API could carry images", async () => {
    const r = await replaySession({
      provider: "deepseek",
      modelID: "deepseek-chat",
      tools: [mediaTool("weather")],
      steps: [
        { format: "chat", lines: recordedChunks("deepseek/deepseek-tool-call.chunks.txt") },
        { format: "chat", lines: recordedChunks("deepseek/deepseek-reasoning.chunks.txt") },
      ],
    });
    const tool = arr(r.requests[1]?.body.messages).find((m) => m.role === "tool");
    expect(tool?.content).toBe(`Image read successfully\n${mediaPlaceholder("image/png", "pixel.png")}`);
    expect(JSON.stringify(r.requests[1]?.body)).not.toContain(PNG);
  });
});
