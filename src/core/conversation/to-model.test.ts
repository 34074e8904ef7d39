import { describe, expect, it } from "vitest";
import { compaction, file, History, reasoning, text, tool } from "../compaction/test-fixtures";
import { toolResultMedia } from "../model-media";
import type { LLMToolResult } from "../ports/llm";
import { CLEARED_TOOL_OUTPUT, COMPACTION_QUESTION, mediaPlaceholder, toModelMessages, unreadablePlaceholder } from "./to-model";

const PNG = { mime: "image/png", filename: "logo.png", url: "data:image/png;base64,iVBORw0KGgo=" };
const PDF = { mime: "application/pdf", filename: "spec.pdf", url: "data:application/pdf;base64,JVBERi0=" };

/** The tool results of a converted history. */
const results = (msgs: ReturnType<typeof toModelMessages>): LLMToolResult[] => msgs.flatMap((m) => (m.role === "tool" ? m.content : []));

describe("toModelMessages", () => {
  it("sends text, files, tool calls and their results; pruned outputs become a placeholder", () => {
    const h = new History();
    h.user(text("look"), file("image/png", "a.png"), file("text/plain", "notes.txt"));
    h.assistant([text("ok"), tool("read", { path: "a" }, "content"), tool("ls", {}, "old", { compacted: 5 })]);
    const msgs = toModelMessages(h.msgs);
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(msgs[0]?.content).toEqual([{ type: "text", text: "look" }, { type: "file", mime: "image/png", url: "data:image/png;base64,AAAA", filename: "a.png" }]);
    const results = msgs[2]?.content.map((c) => (c.type === "tool-result" ? c.output : ""));
    expect(results).toEqual(["content", CLEARED_TOOL_OUTPUT]);
  });

  it("replaces media by a placeholder when asked, and a compaction request by its question", () => {
    const h = new History();
    h.user(file("application/pdf", "spec.pdf"));
    h.user((ids) => ({ ...ids, type: "compaction", auto: true }));
    const msgs = toModelMessages(h.msgs, { stripMedia: true });
    expect(msgs.map((m) => m.content)).toEqual([[{ type: "text", text: mediaPlaceholder("application/pdf", "spec.pdf") }], [{ type: "text", text: COMPACTION_QUESTION }]]);
  });

  it("keeps the provider metadata of text and reasoning parts (reasoning signatures, item ids) flowing back", () => {
    const h = new History();
    h.user(text("think"));
    const a = h.assistant([reasoning("hmm"), text("answer")]);
    const [r, t] = a.parts;
    if (r?.type !== "reasoning" || t?.type !== "text") throw new Error("fixture");
    r.metadata = { openai: { itemId: "rs_1", reasoningEncryptedContent: "enc" } };
    t.metadata = { openai: { itemId: "msg_1" }, rejectedSummary: true };
    const content = toModelMessages(h.msgs)[1]?.content;
    expect(content).toEqual([
      { type: "reasoning", text: "hmm", providerMetadata: { openai: { itemId: "rs_1", reasoningEncryptedContent: "enc" } } },
      // Only provider entries (objects) travel; our own flags stay home.
      { type: "text", text: "answer", providerMetadata: { openai: { itemId: "msg_1" } } },
    ]);
  });

  it("an attachment without its data (another machine's file: path, a web address, junk) is a placeholder, never a URL to fetch", () => {
    const h = new History();
    h.user(text("look"), file("image/png", "here.png"), file("image/png", "local.png", "file:///home/me/local.png"), file("image/png", "web.png", "https://example.com/web.png"), file("application/pdf", "junk.pdf", "not a url"));
    const content = toModelMessages(h.msgs)[0]?.content ?? [];
    expect(content).toEqual([
      { type: "text", text: "look" },
      { type: "file", mime: "image/png", url: "data:image/png;base64,AAAA", filename: "here.png" },
      { type: "text", text: unreadablePlaceholder("image/png", "local.png") },
      { type: "text", text: unreadablePlaceholder("image/png", "web.png") },
      { type: "text", text: unreadablePlaceholder("application/pdf", "junk.pdf") },
    ]);
  });

  it("never sends a summary that did not finish: stopped, failed, or left streaming by a closed tab", () => {
    const h = new History();
    h.user(text("one"));
    h.assistant([text("answer one")]);
    h.user(compaction(true));
    h.assistant([text("STOPPED summary")], { summary: true, error: { name: "MessageAbortedError", data: { message: "stopped" } } });
    h.user(compaction(true));
    h.assistant([text("FAILED summary")], { summary: true, error: { name: "APIError", data: { message: "500" } } });
    h.user(compaction(true));
    const crashed = h.assistant([text("CRASHED summary")], { summary: true });
    delete crashed.info.finish;
    const sent = JSON.stringify(toModelMessages(h.msgs));
    expect(sent).toContain("answer one");
    for (const partial of ["STOPPED", "FAILED", "CRASHED"]) expect(sent).not.toContain(partial);
  });

  it("sends an answer that was cut off (stopped, out of output tokens, its stream ended early) with what it said, never one that failed", () => {
    const h = new History();
    for (const [name, said] of [
      ["MessageAbortedError", "STOPPED half"],
      ["MessageOutputLengthError", "LENGTH half"],
      ["StreamError", "BROKEN half"],
      ["APIError", "FAILED half"],
      ["NetworkError", "OFFLINE half"],
    ] as const) {
      h.user(text(`ask ${name}`));
      h.assistant([text(said)], { error: { name, data: { message: name } } });
    }
    // Cut off before it said anything: nothing to continue from.
    h.user(text("ask empty"));
    h.assistant([], { error: { name: "StreamError", data: { message: "ended" } } });
    const sent = toModelMessages(h.msgs);
    const said = sent.filter((m) => m.role === "assistant").map((m) => JSON.stringify(m.content));
    expect(said).toHaveLength(3);
    expect(said.join()).toMatch(/STOPPED half.*LENGTH half.*BROKEN half/);
    expect(JSON.stringify(sent)).not.toMatch(/FAILED half|OFFLINE half/);
  });

  describe("media a tool read", () => {
    const h = new History();
    h.user(text("look"));
    h.assistant([tool("read", { filePath: "logo.png" }, "Image read successfully", { attachments: [PNG] }), tool("read", { filePath: "spec.pdf" }, "PDF read successfully", { attachments: [PDF] })]);

    it("go as media parts of the result to a model whose API takes them (base64, no URL)", () => {
      const sent = results(toModelMessages(h.msgs, { toolMedia: toolResultMedia({ provider: "anthropic", modelID: "claude-sonnet-4-5" }) }));
      expect(sent.map((r) => [r.output, r.media])).toEqual([
        ["Image read successfully", [{ mime: "image/png", data: "iVBORw0KGgo=", filename: "logo.png" }]],
        ["PDF read successfully", [{ mime: "application/pdf", data: "JVBERi0=", filename: "spec.pdf" }]],
      ]);
    });

    it("an API that takes images only gets the PDF as a placeholder", () => {
      const sent = results(toModelMessages(h.msgs, { toolMedia: toolResultMedia({ provider: "xai", modelID: "grok-4" }) }));
      expect(sent[0]?.media?.map((m) => m.mime)).toEqual(["image/png"]);
      expect(sent[1]).toMatchObject({ output: `PDF read successfully\n${mediaPlaceholder("application/pdf", "spec.pdf")}` });
      expect(sent[1]?.media).toBeUndefined();
    });

    it("become placeholder lines for Chat Completions, text-only models, stripMedia and by default", () => {
      for (const opts of [
        { toolMedia: toolResultMedia({ provider: "openai-compatible", modelID: "llava" }) },
        { toolMedia: toolResultMedia({ provider: "openai", modelID: "openai/deepseek-chat" }) },
        { toolMedia: toolResultMedia({ provider: "anthropic", modelID: "claude-sonnet-4-5" }), stripMedia: true },
        {},
      ]) {
        const sent = results(toModelMessages(h.msgs, opts));
        expect(sent.map((r) => r.output)).toEqual([`Image read successfully\n${mediaPlaceholder("image/png", "logo.png")}`, `PDF read successfully\n${mediaPlaceholder("application/pdf", "spec.pdf")}`]);
        expect(sent.every((r) => r.media === undefined)).toBe(true);
      }
    });

    it("a pruned result sends neither; an attachment that is not base64 data is a placeholder", () => {
      const g = new History();
      g.user(text("look"));
      g.assistant([
        tool("read", { filePath: "logo.png" }, "Image read successfully", { attachments: [PNG], compacted: 5 }),
        tool("read", { filePath: "far.png" }, "Image read successfully", { attachments: [{ mime: "image/png", filename: "far.png", url: "https://example.com/far.png" }] }),
      ]);
      const sent = results(toModelMessages(g.msgs, { toolMedia: () => true }));
      expect(sent[0]).toEqual(expect.objectContaining({ output: CLEARED_TOOL_OUTPUT }));
      expect(sent[0]?.media).toBeUndefined();
      expect(sent[1]).toMatchObject({ output: `Image read successfully\n${mediaPlaceholder("image/png", "far.png")}` });
      expect(sent[1]?.media).toBeUndefined();
    });
  });
});
