import { describe, expect, it } from "vitest";
import { FakeLLM, textTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import type { BusEvent } from "../bus";
import type { Locks } from "../ports/locks";

/** Locks whose run lock another tab holds until `release()`: each run says it is blocked, then waits. */
function heldByOtherTab(): { locks: Locks; release: () => void } {
  let release: () => void = () => {};
  const otherTab = new Promise<void>((r) => {
    release = r;
  });
  return {
    release: () => release(),
    locks: {
      async run(_id, fn, onBlocked) {
        onBlocked();
        await otherTab;
        return fn();
      },
      held: async () => true,
    },
  };
}

describe("a run blocked by another tab", () => {
  it("is a notice, not an UnknownError, and the prompt is answered once the other tab lets go", async () => {
    const { locks, release } = heldByOtherTab();
    const { service, bus } = makeTestService({ llm: new FakeLLM([textTurn("answered here")]), tools: [], locks });
    const events: BusEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const s = await service.createSession();
    await service.prompt(s.id, { text: "hello" });
    const run = service.ensureRunning(s.id);
    await new Promise((r) => setTimeout(r, 10));
    expect(events.filter((e) => e.type === "session.error")).toEqual([]);
    expect(events.find((e) => e.type === "session.notice")).toMatchObject({
      type: "session.notice",
      sessionID: s.id,
      message: expect.stringMatching(/running in another tab/),
    });
    release();
    await run;
    expect(events.filter((e) => e.type === "session.error")).toEqual([]);
  });

  it("starts from the session as the other tab left it, not as the prompt wrote it", async () => {
    const { locks, release } = heldByOtherTab();
    const llm = new FakeLLM([textTurn("answered here")]);
    const { service, store } = makeTestService({ llm, tools: [], locks });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "hello" });
    const run = service.ensureRunning(s.id);
    // The other tab's run switches the session's model before it lets go.
    await store.updateSession(s.id, (x) => ({ ...x, model: { providerID: "openai-compatible", modelID: "gpt-4.1" } }));
    release();
    await run;
    expect(llm.requests.filter((r) => r.purpose !== "title").map((r) => r.model.modelID)).toEqual(["gpt-4.1"]);
  });
});
