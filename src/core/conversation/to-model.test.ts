import { describe, expect, it } from "vitest";
import { file, History, reasoning, text, tool } from "../compaction/test-fixtures";
import { CLEARED_TOOL_OUTPUT, COMPACTION_QUESTION, mediaPlaceholder, toModelMessages } from "./to-model";

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
});
