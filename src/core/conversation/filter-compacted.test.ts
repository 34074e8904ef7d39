import { describe, expect, it } from "vitest";
import { namedError } from "../errors";
import { toModelMessages } from "./to-model";
import { filterCompacted } from "./view";
import { compaction, History, text } from "../compaction/test-fixtures";

const texts = (h: History, ids: string[]) => ids.map((id) => h.msgs.find((m) => m.info.id === id)?.parts.map((p) => (p.type === "text" ? p.text : p.type)).join("|"));

describe("filterCompacted", () => {
  it("without a tail: the compaction request, its summary and everything newer", () => {
    const h = new History();
    h.turn("one", [text("a1")]);
    h.turn("two", [text("a2")]);
    const c = h.user(compaction(true));
    h.assistant([text("SUMMARY")], { summary: true, parent: c.info.id });
    h.turn("three", [text("a3")]);
    const out = filterCompacted(h.msgs).map((m) => m.info.id);
    expect(texts(h, out)).toEqual(["compaction", "SUMMARY", "three", "a3"]);
    expect(toModelMessages(filterCompacted(h.msgs)).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("with a tail: reorders to [request, summary, …tail…, …newer…]", () => {
    const h = new History();
    h.turn("one", [text("a1")]);
    const two = h.user(text("two"));
    h.assistant([text("a2")]);
    h.turn("three", [text("a3")]);
    const c = h.user(compaction(true, { tail_start_id: two.info.id }));
    h.assistant([text("SUMMARY")], { summary: true, parent: c.info.id });
    h.turn("four", [text("a4")]);
    const out = filterCompacted(h.msgs).map((m) => m.info.id);
    expect(texts(h, out)).toEqual(["compaction", "SUMMARY", "two", "a2", "three", "a3", "four", "a4"]);
  });

  it("ends the tail where its first message was, even if that message is gone", () => {
    const h = new History();
    h.turn("one", [text("a1")]);
    const two = h.user(text("two"));
    h.assistant([text("a2")]);
    const c = h.user(compaction(true, { tail_start_id: two.info.id }));
    h.assistant([text("SUMMARY")], { summary: true, parent: c.info.id });
    const withoutTwo = h.msgs.filter((m) => m.info.id !== two.info.id);
    const out = filterCompacted(withoutTwo).map((m) => m.info.id);
    expect(texts(h, out)).toEqual(["compaction", "SUMMARY", "a2"]);
  });

  it("ignores failed or unfinished summaries: the full history stays", () => {
    const h = new History();
    h.turn("one", [text("a1")]);
    const c = h.user(compaction(true));
    h.assistant([], { summary: true, parent: c.info.id, error: namedError("ContextOverflowError", { message: "too large" }) });
    expect(filterCompacted(h.msgs)).toHaveLength(4);
    const unfinished = h.assistant([text("partial")], { summary: true, parent: c.info.id });
    delete unfinished.info.finish;
    expect(filterCompacted(h.msgs)).toHaveLength(5);
  });

  it("uses the newest of two compactions", () => {
    const h = new History();
    h.turn("one", [text("a1")]);
    const c1 = h.user(compaction(true));
    h.assistant([text("S1")], { summary: true, parent: c1.info.id });
    h.turn("two", [text("a2")]);
    const c2 = h.user(compaction(false));
    h.assistant([text("S2")], { summary: true, parent: c2.info.id });
    h.turn("three", [text("a3")]);
    expect(texts(h, filterCompacted(h.msgs).map((m) => m.info.id))).toEqual(["compaction", "S2", "three", "a3"]);
  });
});
