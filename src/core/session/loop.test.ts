import { describe, expect, it, vi } from "vitest";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { namedError } from "../errors";
import { DEFAULT_RULES } from "../permission/evaluate";
import { type Clock, systemClock } from "../ports/clock";
import type { AssistantMessage, MessageWithParts, Ruleset, ToolPart } from "../schema";
import type { Settings } from "../settings";
import { todoWriteTool } from "../tools/todo";
import { defineTool } from "../tools/tool";
import { z } from "../zod";
import { retryNow } from "./retry-now";
import { MAX_STEPS_PROMPT } from "./turn";
import { makeTestService } from "../../testing/session-service";

const fastClock: Clock = { now: () => Date.now(), sleep: async () => undefined };

function setup(llm: FakeLLM, over: Partial<Settings> = {}, rules: Ruleset = DEFAULT_RULES) {
  return makeTestService({ llm, tools: [todoWriteTool], settings: over, rules, clock: fastClock });
}

const assistants = (msgs: MessageWithParts[]) => msgs.filter((m) => m.info.role === "assistant").map((m) => m as MessageWithParts & { info: AssistantMessage });

describe("agent loop", () => {
  it("streams a text answer, records per-step usage and cost, and totals on the session", async () => {
    const llm = new FakeLLM([textTurn("Hello there, friend.", { inputTokens: 1000, cacheReadTokens: 400, outputTokens: 50, reasoningTokens: 10 })]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "hi" });
    await service.ensureRunning(s.id);
    const msgs = await store.messages(s.id);
    expect(msgs.map((m) => m.info.role)).toEqual(["user", "assistant"]);
    const a = assistants(msgs)[0];
    expect(a?.info.finish).toBe("stop");
    expect(a?.parts.map((p) => p.type)).toEqual(["step-start", "text", "step-finish"]);
    const text = a?.parts.find((p) => p.type === "text");
    expect(text?.type === "text" && text.text).toBe("Hello there, friend.");
    // gpt-4o-mini: input 0.15, output 0.6, cache read 0.075 per 1M
    expect(a?.info.tokens).toEqual({ input: 600, output: 40, reasoning: 10, cache: { read: 400, write: 0 } });
    const expected = (600 * 0.15 + 40 * 0.6 + 10 * 0.6 + 400 * 0.075) / 1e6;
    expect(a?.info.cost).toBeCloseTo(expected, 12);
    const session = await store.getSession(s.id);
    expect(session?.cost).toBeCloseTo(expected, 12);
    expect(session?.tokens.cache.read).toBe(400);
    expect(service.status(s.id)).toEqual({ type: "idle" });
  });

  it("runs tool calls, sends their results back, and loops until the model stops", async () => {
    const todos = [{ id: "1", content: "write tests", status: "in_progress", priority: "high" }];
    const llm = new FakeLLM([toolTurn([{ tool: "todowrite", input: { todos } }]), textTurn("Done.")]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "plan it" });
    await service.ensureRunning(s.id);
    const msgs = await store.messages(s.id);
    const [first, second] = assistants(msgs);
    expect(first?.info.finish).toBe("tool-calls");
    const tool = first?.parts.find((p): p is ToolPart => p.type === "tool");
    expect(tool?.state.status).toBe("completed");
    expect(tool?.state.status === "completed" && tool.state.output).toContain("[~] write tests (high)");
    expect(second?.info.finish).toBe("stop");
    expect(second?.info.parentID).toBe(msgs[0]?.info.id);
    const sent = llm.requests[1]?.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    const result = sent[2]?.role === "tool" ? sent[2].content[0] : undefined;
    expect(result?.output).toContain("write tests");
    expect(llm.requests[0]?.tools.map((t) => t.name)).toEqual(["todowrite"]);
  });

  it("gives the model a readable error for invalid tool arguments and goes on", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "todowrite", input: { todos: [{ id: 1 }] } }]), textTurn("Sorry, fixed.")]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "x" });
    await service.ensureRunning(s.id);
    const tool = assistants(await store.messages(s.id))[0]?.parts.find((p): p is ToolPart => p.type === "tool");
    expect(tool?.state.status).toBe("error");
    expect(tool?.state.status === "error" && tool.state.error).toMatch(/invalid arguments[\s\S]*todos\.0\.id/);
    expect(llm.requests).toHaveLength(2);
    const back = llm.requests[1]?.messages[2];
    expect(back?.role === "tool" && back.content[0]?.isError).toBe(true);
  });

  it("reports an unknown tool to the model", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "nope", input: {} }]), textTurn("ok")]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "x" });
    await service.ensureRunning(s.id);
    const tool = assistants(await store.messages(s.id))[0]?.parts.find((p): p is ToolPart => p.type === "tool");
    expect(tool?.state.status === "error" && tool.state.error).toContain('Unknown tool "nope"');
  });

  it("keeps partial text and marks the message aborted when stopped", async () => {
    const llm = new FakeLLM([textTurn("one two three four five six seven eight nine ten eleven twelve")]);
    llm.delayMs = 5;
    const { store, service, bus } = setup(llm);
    const s = await service.createSession();
    let seen = 0;
    bus.subscribe((ev) => {
      if (ev.type === "part.live" && ev.part.type === "text" && ++seen === 3) service.abort(s.id);
    });
    await service.prompt(s.id, { text: "count" });
    await service.ensureRunning(s.id);
    const a = assistants(await store.messages(s.id))[0];
    expect(a?.info.error?.name).toBe("MessageAbortedError");
    const text = a?.parts.find((p) => p.type === "text");
    expect(text?.type === "text" && text.text.length).toBeGreaterThan(0);
    expect(text?.type === "text" && text.text.length).toBeLessThan(60);
    expect(a?.info.time.completed).toBeDefined();
  });

  it("retries a rate limit after retry-after and then succeeds", async () => {
    const rateLimited = namedError("APIError", { message: "Rate limit reached", statusCode: 429, isRetryable: true, responseHeaders: { "retry-after": "1" } });
    const llm = new FakeLLM([[{ type: "error", error: rateLimited }], textTurn("after retry")]);
    const { store, service } = setup(llm);
    const sleeps: number[] = [];
    const s = await service.createSession();
    (service as unknown as { deps: { clock: Clock } }).deps.clock = { now: () => Date.now(), sleep: async (ms) => void sleeps.push(ms) };
    await service.prompt(s.id, { text: "x" });
    await service.ensureRunning(s.id);
    expect(sleeps).toEqual([1000]);
    const a = assistants(await store.messages(s.id))[0];
    const retry = a?.parts.find((p) => p.type === "retry");
    expect(retry?.type === "retry" && retry.attempt).toBe(1);
    expect(a?.info.error).toBeUndefined();
    expect(a?.parts.some((p) => p.type === "text" && p.text === "after retry")).toBe(true);
  });

  it("Retry now ends a long retry-after wait early, and the run goes on", async () => {
    const rateLimited = namedError("APIError", { message: "Rate limit reached", statusCode: 429, isRetryable: true, responseHeaders: { "retry-after": "600" } });
    const llm = new FakeLLM([[{ type: "error", error: rateLimited }], textTurn("after retry")]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    // A real wait: ten minutes, as the provider asked.
    (service as unknown as { deps: { clock: Clock } }).deps.clock = systemClock;
    await service.prompt(s.id, { text: "x" });
    expect(retryNow(s.id)).toBe(false);
    const run = service.ensureRunning(s.id);
    // Once the step waits to retry, end the wait.
    const started = Date.now();
    await vi.waitFor(() => expect(retryNow(s.id)).toBe(true), { timeout: 10_000, interval: 20 });
    await run;
    expect(Date.now() - started).toBeLessThan(5_000);
    const a = assistants(await store.messages(s.id))[0];
    expect(a?.info.error).toBeUndefined();
    expect(a?.parts.some((p) => p.type === "text" && p.text === "after retry")).toBe(true);
    expect(retryNow(s.id)).toBe(false);
  });

  it("stops on a non-retryable error and keeps the provider's message", async () => {
    const auth = namedError("ProviderAuthError", { message: "Incorrect API key provided" });
    const llm = new FakeLLM([[{ type: "error", error: auth }]]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "x" });
    await service.ensureRunning(s.id);
    const a = assistants(await store.messages(s.id))[0];
    expect(a?.info.error).toEqual(auth);
    expect(llm.requests).toHaveLength(1);
  });

  it("records a context overflow and stops when auto-compaction is off", async () => {
    const overflow = namedError("ContextOverflowError", { message: "maximum context length" });
    const llm = new FakeLLM([[{ type: "error", error: overflow }], textTurn("never")]);
    const { store, service } = setup(llm, { compaction: { auto: false, prune: true, threshold: 1 } });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "x" });
    await service.ensureRunning(s.id);
    expect(assistants(await store.messages(s.id))[0]?.info.error?.name).toBe("ContextOverflowError");
    expect(llm.requests).toHaveLength(1);
  });

  it("delivers a prompt sent during a run after the current answer", async () => {
    const llm = new FakeLLM([textTurn("first answer is a bit long to stream"), textTurn("second answer")]);
    llm.delayMs = 2;
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await new Promise((r) => setTimeout(r, 10));
    expect(service.isBusy(s.id)).toBe(true);
    await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    const msgs = await store.messages(s.id);
    expect(msgs.map((m) => m.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(msgs[3]?.info.role === "assistant" && msgs[3].info.parentID).toBe(msgs[2]?.info.id);
    expect(llm.requests).toHaveLength(2);
  });

  it("asks before a third identical tool call and stops the turn on reject", async () => {
    const call = { tool: "todowrite", input: { todos: [] } };
    const llm = new FakeLLM([toolTurn([call]), toolTurn([call]), toolTurn([call]), textTurn("x")]);
    const { store, service, permissions } = setup(llm);
    permissions.subscribe(() => {
      const p = permissions.pending()[0];
      if (p) permissions.reply(p.id, { type: "reject" });
    });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "loop" });
    await service.ensureRunning(s.id);
    const decisions = permissions.decisions(s.id).filter((d) => d.permission === "doom_loop");
    expect(decisions.map((d) => d.action)).toEqual(["reject"]);
    expect(llm.requests).toHaveLength(3);
    const tools = assistants(await store.messages(s.id)).flatMap((a) => a.parts.filter((p): p is ToolPart => p.type === "tool"));
    expect(tools.map((t) => t.state.status)).toEqual(["completed", "completed", "error"]);
  });

  it("a call waiting for the user's approval is marked on the stored part; a reload then says it waited and did not run", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "probe", input: {} }]), textTurn("x")]);
    const probe = defineTool({
      id: "probe",
      description: "asks, then answers",
      parameters: z.object({}),
      async execute(_args, ctx) {
        await ctx.ask({ permission: "probe", patterns: ["x"], always: ["*"] });
        return { title: "probe", output: "ran" };
      },
    });
    const { store, service, permissions } = makeTestService({ llm, tools: [probe], rules: [...DEFAULT_RULES, { permission: "probe", pattern: "*", action: "ask" }], clock: fastClock });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "plan" });
    const run = service.ensureRunning(s.id);
    await new Promise<void>((resolve) => {
      const off = permissions.subscribe(() => {
        if (permissions.pending().length) {
          off();
          resolve();
        }
      });
    });
    const stored = async () => assistants(await store.messages(s.id)).flatMap((a) => a.parts.filter((p): p is ToolPart => p.type === "tool"))[0];
    await expect.poll(async () => {
      const t = await stored();
      return t?.state.status === "running" && typeof t.state.metadata?.awaitingApproval === "object";
    }).toBe(true);
    // The tab closes here: what the next page load's repair makes of the stored session.
    const { MemoryStore } = await import("../../testing/memory-store");
    const copy = new MemoryStore();
    const session = await store.getSession(s.id);
    if (!session) throw new Error("no session");
    await copy.importSession(session, await store.messages(s.id));
    const { repairSession } = await import("./repair");
    await repairSession(copy, s.id, Date.now() + 100_000);
    const repaired = assistants(await copy.messages(s.id))[0];
    const tool = repaired?.parts.find((p): p is ToolPart => p.type === "tool");
    expect(tool?.state.status === "error" && tool.state.error).toBe("Not run: the tab was closed or reloaded while this call waited for your approval.");
    // It ended when the question was asked, not when the session was opened again.
    expect(tool?.state.status === "error" && tool.state.time.end - tool.state.time.start).toBeLessThan(10_000);
    expect(repaired?.info.error?.data.message).toMatch(/^Stopped while waiting for your approval/);
    // Answered in this tab instead, the note goes.
    const p = permissions.pending()[0];
    if (p) permissions.reply(p.id, { type: "once" });
    await run;
    const done = await stored();
    expect(done?.state.status).toBe("completed");
    expect(done?.state.status === "completed" && done.state.metadata).not.toHaveProperty("awaitingApproval");
  });

  it("asks the model to wrap up on the last allowed step", async () => {
    const llm = new FakeLLM([toolTurn([{ tool: "todowrite", input: { todos: [] } }]), toolTurn([{ tool: "todowrite", input: { todos: [{ id: "a", content: "b", status: "pending", priority: "low" }] } }])]);
    const { service } = setup(llm, { maxSteps: 2 });
    const s = await service.createSession();
    await service.prompt(s.id, { text: "go" });
    await service.ensureRunning(s.id);
    expect(llm.requests).toHaveLength(2);
    const last = llm.requests[1]?.messages.at(-1);
    expect(last?.role === "assistant" && last.content[0]?.type === "text" && last.content[0].text).toBe(MAX_STEPS_PROMPT);
  });

  it("generates a title in the background from the first prompt", async () => {
    const llm = new FakeLLM([textTurn("hi")]);
    llm.titleText = "Greeting the assistant\nsecond line";
    const { store, service } = setup(llm);
    const s = await service.createSession();
    expect(s.title).toMatch(/^New session – /);
    await service.prompt(s.id, { text: "hello" });
    await service.ensureRunning(s.id);
    await new Promise((r) => setTimeout(r, 20));
    expect((await store.getSession(s.id))?.title).toBe("Greeting the assistant");
  });

  it("repairs a message left streaming by a closed tab", async () => {
    const llm = new FakeLLM([]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    const base = { sessionID: s.id };
    await store.upsertMessage({ ...base, id: "msg_0000000000010000000000000", role: "user", time: { created: 1 }, agent: "build", model: { providerID: "x", modelID: "y" } });
    await store.upsertMessage({ ...base, id: "msg_0000000000020000000000000", role: "assistant", parentID: "msg_0000000000010000000000000", time: { created: 2 }, modelID: "y", providerID: "x", agent: "build", cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } });
    await store.upsertPart({ ...base, id: "prt_0000000000030000000000000", messageID: "msg_0000000000020000000000000", type: "text", text: "partial" });
    await store.upsertPart({ ...base, id: "prt_0000000000040000000000000", messageID: "msg_0000000000020000000000000", type: "tool", callID: "c", tool: "bash", state: { status: "running", input: {}, time: { start: 3 } } });
    expect(await service.repair(s.id)).toBe(1);
    const a = assistants(await store.messages(s.id))[0];
    expect(a?.info.error?.name).toBe("MessageAbortedError");
    expect(a?.parts.find((p) => p.type === "tool")?.type === "tool" && (a.parts[1] as ToolPart).state.status).toBe("error");
    expect(a?.parts.some((p) => p.type === "text" && p.text === "partial")).toBe(true);
  });
});

describe("branches in the loop", () => {
  it("edit-and-resend makes a branch: the model sees only that branch, and each branch keeps its continuation", async () => {
    const llm = new FakeLLM([textTurn("answer one"), textTurn("answer two"), textTurn("answer two, edited"), textTurn("three on the old branch")]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    const two = await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    const edited = await service.prompt(s.id, { text: "two, edited", editOf: two.id });
    await service.ensureRunning(s.id);
    const sent = llm.requests[2]?.messages.map((m) => (m.content[0]?.type === "text" ? m.content[0].text : "")) ?? [];
    expect(sent).toEqual(["one", "answer one", "two, edited"]);
    expect((await store.getSession(s.id))?.branches).toEqual({ [edited.prev ?? ""]: edited.id });
    expect(edited.prev).toBe(two.prev);

    // Switch back to the first branch and continue it.
    await store.updateSession(s.id, (x) => ({ ...x, branches: { [two.prev ?? ""]: two.id } }));
    await service.prompt(s.id, { text: "three" });
    await service.ensureRunning(s.id);
    const last = llm.requests[3]?.messages.map((m) => (m.content[0]?.type === "text" ? m.content[0].text : "")) ?? [];
    expect(last).toEqual(["one", "answer one", "two", "answer two", "three"]);
    expect(await store.messages(s.id)).toHaveLength(8);
  });
});

describe("queued prompts after a stop", () => {
  it("a prompt sent during a turn that then fails is still answered", async () => {
    const bad = namedError("APIError", { message: "bad request", statusCode: 400, isRetryable: false });
    const failing = [...textTurn("a partial answer that is cut").slice(0, 4), { type: "error" as const, error: bad }];
    const llm = new FakeLLM([failing, textTurn("answer to the queued prompt")]);
    llm.delayMs = 3;
    const { store, service, bus } = setup(llm);
    const s = await service.createSession();
    let queued: Promise<unknown> | undefined;
    bus.subscribe((ev) => {
      if (ev.type === "part.live" && !queued) queued = service.prompt(s.id, { text: "two (queued)" });
    });
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    await queued;
    await service.ensureRunning(s.id);
    const msgs = await store.messages(s.id);
    expect(msgs.filter((m) => m.info.role === "user")).toHaveLength(2);
    const last = msgs.at(-1);
    expect(last?.info.role === "assistant" && last.parts.some((p) => p.type === "text" && p.text === "answer to the queued prompt")).toBe(true);
    expect(llm.requests).toHaveLength(2);
  });
});

describe("revert on a branched session", () => {
  it("the prompt after a revert replaces the reverted turn in the branch that was shown", async () => {
    const llm = new FakeLLM([textTurn("a1"), textTurn("a2"), textTurn("a2b"), textTurn("a3")]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    const two = await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    const twoB = await service.prompt(s.id, { text: "two-b", editOf: two.id });
    await service.ensureRunning(s.id);
    // Show the older branch, revert its turn, then prompt.
    await store.updateSession(s.id, (x) => ({ ...x, branches: { ...x.branches, [two.prev ?? ""]: two.id }, revert: { messageID: two.id } }));
    const three = await service.prompt(s.id, { text: "three" });
    await service.ensureRunning(s.id);
    const sent = llm.requests.at(-1)?.messages.map((m) => (m.content[0]?.type === "text" ? m.content[0].text : "")) ?? [];
    expect(sent).toEqual(["one", "a1", "three"]);
    expect(three.prev).toBe(two.prev);
    // The other branch is untouched.
    expect((await store.messages(s.id)).some((m) => m.info.id === twoB.id)).toBe(true);
    expect((await store.messages(s.id)).some((m) => m.info.id === two.id)).toBe(false);
  });
});

describe("more queued-prompt and branch cases", () => {
  it("a prompt sent while Compact now writes the summary is answered after it", async () => {
    const llm = new FakeLLM([textTurn("first answer"), textTurn("## Goal\nsummary"), textTurn("answer to the queued prompt")]);
    llm.delayMs = 3;
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    const compacting = service.compact(s.id);
    await new Promise((r) => setTimeout(r, 5));
    await service.prompt(s.id, { text: "two (queued)" });
    await compacting;
    await service.ensureRunning(s.id);
    const last = (await store.messages(s.id)).at(-1);
    expect(last?.info.role === "assistant" && last.parts.some((p) => p.type === "text" && p.text === "answer to the queued prompt")).toBe(true);
  });

  it("committing a revert removes the branches that grew out of the removed turns", async () => {
    const llm = new FakeLLM([textTurn("a1"), textTurn("a2"), textTurn("a3"), textTurn("a3b"), textTurn("new a2")]);
    const { store, service } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "one" });
    await service.ensureRunning(s.id);
    const two = await service.prompt(s.id, { text: "two" });
    await service.ensureRunning(s.id);
    const three = await service.prompt(s.id, { text: "three" });
    await service.ensureRunning(s.id);
    await service.prompt(s.id, { text: "three-b", editOf: three.id });
    await service.ensureRunning(s.id);
    await store.updateSession(s.id, (x) => ({ ...x, revert: { messageID: two.id } }));
    await service.prompt(s.id, { text: "new two" });
    await service.ensureRunning(s.id);
    const texts = (await store.messages(s.id)).flatMap((m) => m.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])));
    expect(texts).toEqual(["one", "a1", "new two", "new a2"]);
  });
});
