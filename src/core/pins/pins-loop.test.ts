import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PromptWiring } from "../../app/prompt-wiring";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import { systemClock } from "../ports/clock";
import { defaultSettings } from "../settings";
import { defineTool } from "../tools/tool";
import { setPin, suggestPins } from "./pins";

const big = defineTool({
  id: "big",
  description: "Returns n words.",
  parameters: z.object({ n: z.number() }),
  execute: async ({ n }) => ({ title: `${n} words`, output: Array.from({ length: n }, (_, i) => `word${i}`).join(" ") }),
});
const TINY = { contextWindow: 4000, maxOutputTokens: 500, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
const summaryTurn = () => textTurn("## Goal\nDo the thing.\n## Progress\nCalled big.");

function setup(llm: FakeLLM) {
  const settings = { ...defaultSettings(), provider: "openai-compatible" as const, modelID: "tiny", models: { tiny: TINY } };
  const wiring = new PromptWiring(systemClock, () => settings, () => "build");
  return makeTestService({ llm, tools: [big], settings, system: wiring.system });
}

describe("pinned constraints in the loop", () => {
  it("a constraint stated in the first message is in every request after two automatic compactions", async () => {
    const llm = new FakeLLM([
      toolTurn([{ tool: "big", input: { n: 4000 } }], { inputTokens: 100, outputTokens: 10 }),
      summaryTurn(),
      toolTurn([{ tool: "big", input: { n: 4000 } }], { inputTokens: 100, outputTokens: 10 }),
      summaryTurn(),
      textTurn("Done, and config/ was left alone."),
    ]);
    const { service, store } = setup(llm);
    const s = await service.createSession();
    await service.prompt(s.id, { text: "Clean up the logging module. Never touch config/ or anything under it." });
    await service.ensureRunning(s.id);
    expect(llm.requests.map((r) => r.purpose)).toEqual(["chat", "summary", "chat", "summary", "chat"]);
    // The summaries replaced the first message in what is sent; the pin did not go with it.
    const last = llm.requests.at(-1);
    const sent = JSON.stringify(last?.messages);
    expect(sent).not.toContain("Never touch config/");
    for (const r of llm.requests.filter((x) => x.purpose === "chat")) expect(r.system.join("\n")).toContain("- Never touch config/ or anything under it.");
    expect(last?.system.join("\n")).toContain("Goal: Clean up the logging module.");
    // A dismissed suggestion is no longer sent.
    const msgs = await store.messages(s.id);
    const rule = suggestPins(msgs).find((p) => p.kind === "constraint");
    if (!rule) throw new Error("no suggestion");
    await store.updateSession(s.id, (x) => ({ ...x, pins: setPin(x.pins, { ...rule, state: "dismissed" }) }));
    llm.push(textTurn("ok"));
    await service.prompt(s.id, { text: "Thanks." });
    await service.ensureRunning(s.id);
    expect(llm.requests.at(-1)?.system.join("\n")).not.toContain("Never touch config/");
  });
});
