import { describe, expect, it } from "vitest";
import { namedError } from "../errors";
import { toModelMessages } from "./to-model";
import { foldedCounts } from "./system-event";
import { filterCompacted, readingOrder, upToAsRead } from "./view";
import { compaction, History, keptTailHistory, text } from "../compaction/test-fixtures";

const texts = (h: History, ids: string[]) => ids.map((id) => h.msgs.find((m) => m.info.id === id)?.parts.map((p) => (p.type === "text" ? p.text : p.type)).join("|"));

/**
 * Two summaries that kept tails, the second ("Summarise up to here" on a2) inside the first one's tail: its tail
 * starts at "three", a message older than the first request.
 */
function nestedTails() {
  const h = new History();
  h.turn("one", [text("a1")]);
  const two = h.user(text("two"));
  h.assistant([text("a2")]);
  const three = h.user(text("three"));
  h.assistant([text("a3")]);
  const c1 = h.user(compaction(false, { tail_start_id: two.info.id }));
  h.assistant([text("S1")], { summary: true, parent: c1.info.id });
  h.turn("four", [text("a4")]);
  const c2 = h.user(compaction(false, { tail_start_id: three.info.id }));
  h.assistant([text("S2")], { summary: true, parent: c2.info.id });
  return { h, c1, c2 };
}

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

  it("a second summary kept a tail inside the first one's tail: the first summary is folded, not sent again", () => {
    const { h } = nestedTails();
    expect(texts(h, filterCompacted(h.msgs).map((m) => m.info.id))).toEqual(["compaction", "S2", "three", "a3", "four", "a4"]);
  });
});

describe("readingOrder", () => {
  it("shows a summary that kept a tail where it stands: before the turns it kept, and counts what each folded", () => {
    const { h, c1, c2 } = nestedTails();
    const reading = readingOrder(h.msgs, "started");
    expect(texts(h, reading.map((m) => m.info.id))).toEqual(["one", "a1", "compaction", "S1", "two", "a2", "compaction", "S2", "three", "a3", "four", "a4"]);
    const sent = new Set(filterCompacted(h.msgs).map((m) => m.info.id));
    // The first summary folded one turn, the second one more (the first summary itself is not a message).
    const folded = foldedCounts(reading, sent);
    expect([folded.byRequest.get(c1.info.id), folded.byRequest.get(c2.info.id), folded.total]).toEqual([2, 2, 4]);
  });

  it("moves a summary still being written for the screen, not for the model; a failed one stays where it happened", () => {
    const h = new History();
    h.turn("one", [text("a1")]);
    const two = h.user(text("two"));
    h.assistant([text("a2")]);
    const c = h.user(compaction(false, { tail_start_id: two.info.id }));
    const s = h.assistant([text("partial")], { summary: true, parent: c.info.id });
    delete s.info.finish;
    expect(texts(h, readingOrder(h.msgs, "started").map((m) => m.info.id))).toEqual(["one", "a1", "compaction", "partial", "two", "a2"]);
    expect(readingOrder(h.msgs, "finished")).toBe(h.msgs);
    expect(filterCompacted(h.msgs)).toHaveLength(6);
    s.info.error = namedError("ContextOverflowError", { message: "too large" });
    expect(readingOrder(h.msgs, "started")).toBe(h.msgs);
  });

  it("leaves a history without a kept tail as it is (the same array)", () => {
    const h = new History();
    h.turn("one", [text("a1")]);
    const c = h.user(compaction(true));
    h.assistant([text("SUMMARY")], { summary: true, parent: c.info.id });
    expect(readingOrder(h.msgs, "started")).toBe(h.msgs);
  });
});

describe("upToAsRead (what a fork or a fresh start keeps)", () => {
  /** "Summarise up to here" on a1: the summary (written after a3) is read before "two". */
  const keptTail = () => keptTailHistory();
  const keep = (h: History, r: { messages: { info: { id: string } }[] }) => texts(h, r.messages.map((m) => m.info.id));

  it("through a kept turn carries the summary read before it; the files stand after that turn", () => {
    const { h, a2 } = keptTail();
    const r = upToAsRead(h.msgs, a2.info.id, "through");
    expect(keep(h, r)).toEqual(["one", "a1", "two", "a2", "compaction", "S"]);
    expect(r.filesAfter).toBe(a2.info.id);
  });

  it("through the summary leaves out the turns it kept, though they were written before it", () => {
    const { h, s } = keptTail();
    const r = upToAsRead(h.msgs, s.info.id, "through");
    expect(keep(h, r)).toEqual(["one", "a1", "compaction", "S"]);
    // The files as they were before the kept turns ran, not as the summary found them.
    expect(r.filesAfter).toBe(h.msgs[1]?.info.id);
  });

  it("before a kept prompt: what reads before it, summary included; before the first message: nothing", () => {
    const { h, two } = keptTail();
    expect(keep(h, upToAsRead(h.msgs, two.info.id, "before"))).toEqual(["one", "a1", "compaction", "S"]);
    const first = upToAsRead(h.msgs, h.msgs[0]?.info.id ?? "", "before");
    expect([first.messages, first.filesAfter]).toEqual([[], undefined]);
  });

  it("without a kept tail it is the id order; a message not shown cuts by time", () => {
    const h = new History();
    h.turn("one", [text("a1")]);
    h.turn("two", [text("a2")]);
    const mid = h.msgs[2]?.info.id ?? "";
    expect(keep(h, upToAsRead(h.msgs, mid, "through"))).toEqual(["one", "a1", "two"]);
    const shown = h.msgs.slice(0, 2);
    expect(keep(h, upToAsRead(shown, mid, "through"))).toEqual(["one", "a1"]);
  });
});
