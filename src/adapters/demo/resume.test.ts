import { describe, expect, it } from "vitest";
import type { LLM, LLMEvent, LLMRequest } from "../../core/ports/llm";
import { CONTINUE_ANSWER_PROMPT } from "../../core/session/finish-notice";
import { createDemoLLM } from "./demo-llm";
import { DEMO_FIXED_LINE } from "./sample-project";
import { assistants, NO_AUTO_COMPACTION, RecordingLLM, setupDemo, texts, toolParts } from "./test-harness";

/** The demo model, cut in the middle of its `at`-th chat answer (as a closed tab or Stop cuts it). */
class CutOnce implements LLM {
  private chats = 0;
  cut: () => void = () => undefined;
  constructor(
    private readonly inner: LLM,
    private readonly at: number,
  ) {}

  async *stream(req: LLMRequest): AsyncIterable<LLMEvent> {
    const n = req.purpose === "chat" ? ++this.chats : 0;
    for await (const ev of this.inner.stream(req)) {
      yield ev;
      if (n === this.at && ev.type === "text-delta") {
        this.cut();
        return;
      }
    }
  }
}

describe("demo model: Continue after a cut answer", () => {
  it("picks the run up at its next step (no 'I can't answer' about the Continue prompt), and finishes the fix", async () => {
    const inner = new CutOnce(createDemoLLM(0), 3);
    const setup = await setupDemo({ llm: new RecordingLLM(inner), settings: NO_AUTO_COMPACTION });
    const s = await setup.service.createSession();
    inner.cut = () => setup.service.abort(s.id);
    await setup.service.prompt(s.id, { text: "Fix the date bug" });
    await setup.service.ensureRunning(s.id);
    const before = await setup.store.messages(s.id);
    const cut = assistants(before).at(-1);
    expect(cut?.info.error?.name).toBe("MessageAbortedError");
    expect(await setup.sandbox.fs.readText("/workspace/src/dates.js")).not.toContain(DEMO_FIXED_LINE);

    await setup.service.prompt(s.id, { text: CONTINUE_ANSWER_PROMPT, continueAnswer: true });
    await setup.service.ensureRunning(s.id);
    const turn = (await setup.store.messages(s.id)).slice(before.length);
    // The Continue prompt is tabcode's message, not the person's.
    const prompt = turn[0];
    expect(prompt?.parts[0]).toMatchObject({ type: "text", synthetic: true, metadata: { continue_answer: true } });
    // The run goes on: the fix is made and the answer is the fix's.
    expect(toolParts(turn).some((t) => t.tool === "edit" && t.state.status === "completed")).toBe(true);
    expect(await setup.sandbox.fs.readText("/workspace/src/dates.js")).toContain(DEMO_FIXED_LINE);
    const final = texts(assistants(turn).at(-1));
    expect(final).not.toMatch(/can't answer|won't pretend|compacted/i);
    expect(assistants(turn).at(-1)?.info.finish).toBe("stop");
  });
});
