import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { bigOutputTool } from "../../testing/tiny-model";
import { makeTestService } from "../../testing/session-service";
import { namedError } from "../errors";
import type { Clock } from "../ports/clock";
import type { AssistantMessage, MessageWithParts } from "../schema";
import { estimateTokens, type TokenCounter } from "../tokens/counter";

const fastClock: Clock = { now: () => Date.now(), sleep: async () => undefined };
const assistants = (msgs: MessageWithParts[]) => msgs.filter((m): m is MessageWithParts & { info: AssistantMessage } => m.info.role === "assistant");
const textOf = (m: MessageWithParts | undefined) => m?.parts.map((p) => (p.type === "text" ? p.text : "")).join("") ?? "";
const sentTexts = (llm: FakeLLM, i: number) => JSON.stringify(llm.requests[i]?.messages ?? []);

async function idle(service: { isBusy(id: string): boolean }, id: string): Promise<void> {
  for (let i = 0; i < 500 && service.isBusy(id); i++) await new Promise((r) => setTimeout(r, 5));
}

describe("loop and history defects", () => {
  it("a prompt sent while Stop is unwinding is answered", async () => {
    const llm = new FakeLLM([textTurn("one two three four five six seven eight nine ten eleven twelve thirteen"), textTurn("answer to two")]);
    llm.delayMs = 3;
    const { store, service } = makeTestService({ llm, tools: [], clock: fastClock });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await new Promise((r) => setTimeout(r, 15));
    service.abort(s.id);
    // The run is still unwinding (its last writes are in flight) when the next prompt arrives.
    await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    await idle(service, s.id);
    const last = (await store.messages(s.id)).at(-1);
    expect(last?.info.role).toBe("assistant");
    expect(textOf(last)).toBe("answer to two");
  });

  it("a run stopped while the request is measured creates no empty message and never calls the model", async () => {
    const llm = new FakeLLM([textTurn("never")]);
    let stop = () => {};
    const counter: TokenCounter = {
      encodingFor: () => "est",
      count: async (texts) => {
        stop();
        return texts.map(estimateTokens);
      },
    };
    const { store, service } = makeTestService({ llm, tools: [], clock: fastClock, counter });
    const s = await service.createSession();
    stop = () => service.abort(s.id);
    await service.prompt(s.id, { text: "hi" });
    await service.ensureRunning(s.id);
    expect(llm.requests).toHaveLength(0);
    expect(assistants(await store.messages(s.id))).toHaveLength(0);
  });

  it("a stopped summary's partial text is never sent to the model", async () => {
    const llm = new FakeLLM([textTurn("first answer"), textTurn("PARTIAL-SUMMARY text that streams for a while before it is stopped"), textTurn("answer to two")]);
    llm.delayMs = 3;
    const { store, service, bus } = makeTestService({ llm, tools: [], clock: fastClock });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    const off = bus.subscribe((ev) => {
      if (ev.type === "part.live" && ev.part.type === "text" && ev.part.text.includes("PARTIAL")) service.abort(s.id);
    });
    await service.compact(s.id).catch(() => undefined);
    off();
    const summary = assistants(await store.messages(s.id)).find((m) => m.info.summary);
    expect(summary?.info.error?.name).toBe("MessageAbortedError");
    expect(textOf(summary)).toContain("PARTIAL");
    await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    expect(sentTexts(llm, 2)).toContain("first answer");
    expect(sentTexts(llm, 2)).not.toContain("PARTIAL");
  });

  it("a file part whose url is not a URL degrades to a placeholder instead of breaking every request", async () => {
    const llm = new FakeLLM([textTurn("ok")]);
    const { store, service } = makeTestService({ llm, tools: [], clock: fastClock });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "look", files: [{ mime: "image/png", filename: "shot.png", url: "not a url at all" }] });
    await service.ensureRunning(s.id);
    const user = llm.requests[0]?.messages[0];
    expect(user?.content).toEqual([
      { type: "text", text: "look" },
      { type: "text", text: "[Attached image/png: shot.png (its data could not be read)]" },
    ]);
    expect(textOf(assistants(await store.messages(s.id))[0])).toBe("ok");
  });

  it("the auto-summary cap counts per prompt: queued prompts in one long run each get their own", async () => {
    const overflow = namedError("ContextOverflowError", { message: "maximum context length exceeded" });
    const over = () => [{ type: "error" as const, error: overflow }];
    const summary = () => textTurn("## Goal\nkeep going");
    // Prompt one overflows twice (two summaries, a step answered between them: a summary right after another would
    // only fold it again), then is answered; prompt two (queued) overflows once more and still gets its summary.
    const step = () => toolTurn([{ tool: "big", input: { n: 1 } }]);
    const llm = new FakeLLM([over(), summary(), step(), over(), summary(), textTurn("answer one"), over(), summary(), textTurn("answer two")]);
    llm.delayMs = 1;
    const { store, service, bus } = makeTestService({ llm, tools: [bigOutputTool], clock: fastClock, settings: { modelID: "tiny", models: { tiny: { contextWindow: 32_000, maxOutputTokens: 4000, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } } } } });
    const s = await service.createSession();
    // "two" is queued while "one" is being answered, so the same run answers both.
    let queued: Promise<unknown> | undefined;
    bus.subscribe((ev) => {
      if (!queued && ev.type === "part.live" && ev.part.type === "text" && ev.part.text.startsWith("answer")) queued = service.prompt(s.id, { text: "two" });
    });
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    await queued;
    await idle(service, s.id);
    const answers = assistants(await store.messages(s.id)).filter((m) => !m.info.summary && !m.info.error).map(textOf);
    // The tool step has no text of its own.
    expect(answers).toEqual(["", "answer one", "answer two"]);
    expect(llm.requests.filter((r) => r.purpose === "summary")).toHaveLength(3);
  });
});
