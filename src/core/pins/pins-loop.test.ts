import { describe, expect, it } from "vitest";
import { z } from "../zod";
import { PromptWiring } from "../../app/prompt-wiring";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import { systemClock } from "../ports/clock";
import { defaultSettings } from "../settings";
import { bigOutputTool as big, TINY_MODEL as TINY } from "../../testing/tiny-model";
import { defineTool } from "../tools/tool";
import { setPin, suggestPins } from "./pins";

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
    // The summaries replaced the first message; the pin stayed in the system prompt, and the user's own words come right after the summary.
    const last = llm.requests.at(-1);
    const roles = last?.messages.map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "user", "user"]);
    const words = last?.messages[2]?.content[0];
    expect(words?.type === "text" ? words.text : "").toBe("The user's earlier messages, verbatim (the conversation they belong to was summarised above):\n\n[1] Clean up the logging module. Never touch config/ or anything under it.");
    for (const r of llm.requests.filter((x) => x.purpose === "chat")) expect(r.system.join("\n")).toContain("- Never touch config/ or anything under it.");
    // The second summary is written from the user's words too (here a transcript request: they come before the conversation).
    const second = llm.requests.filter((x) => x.purpose === "summary")[1]?.messages.at(-1)?.content[0];
    expect(second?.type === "text" ? second.text : "").toContain("<earlier-user-messages>\nThe user's earlier messages, verbatim (the conversation they belong to was summarised above):\n\n[1] Clean up the logging module. Never touch config/ or anything under it.");
    expect(last?.system.join("\n")).toContain("Goal: Clean up the logging module.");
    // Each compaction's check is on its request: both pins found, nothing re-added, one user message kept.
    const checks = (await store.messages(s.id)).flatMap((m) => m.parts).flatMap((p) => (p.type === "compaction" && p.check ? [p.check] : []));
    expect(checks.map(({ time: _t, ...c }) => c)).toEqual([
      { pins: 2, files: 0, reinjectedPins: 0, reinjectedFiles: 0, userMessages: 1, droppedUserMessages: 0 },
      { pins: 2, files: 0, reinjectedPins: 0, reinjectedFiles: 0, userMessages: 1, droppedUserMessages: 0 },
    ]);
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

  it("re-adds pins and touched files the next request after a summary does not hold, and says so on the compaction request", async () => {
    const read = defineTool({
      id: "read",
      description: "Reads a file.",
      parameters: z.object({ filePath: z.string() }),
      execute: async () => ({ title: "read", output: Array.from({ length: 4000 }, (_, i) => `line${i}`).join(" ") }),
    });
    const llm = new FakeLLM([toolTurn([{ tool: "read", input: { filePath: "src/log.ts" } }], { inputTokens: 100, outputTokens: 10 }), summaryTurn(), textTurn("ok")]);
    // No prompt wiring: the built-in system prompt has no pinned section, so the check must re-add the pins.
    const settings = { ...defaultSettings(), provider: "openai-compatible" as const, modelID: "tiny", models: { tiny: TINY } };
    const { service, store } = makeTestService({ llm, tools: [read], settings });
    const s = await service.createSession();
    await store.updateSession(s.id, (x) => ({ ...x, pins: [{ id: "pin_own", kind: "constraint", text: "Keep answers under 100 words.", state: "accepted", time: 1 }] }));
    await service.prompt(s.id, { text: "Tidy the logger. Never touch config/." });
    await service.ensureRunning(s.id);
    expect(llm.requests.map((r) => r.purpose)).toEqual(["chat", "summary", "chat"]);
    const extra = llm.requests.at(-1)?.messages[2]?.content[0];
    const text = extra?.type === "text" ? extra.text : "";
    // The user's own words hold the suggested goal and rule; the summary's code-built file list holds src/log.ts: only the own pin is missing.
    expect(text).toContain("[1] Tidy the logger. Never touch config/.");
    expect(text).toContain("Re-added after the summary (the request no longer held them):\nConstraints and preferences:\n- Keep answers under 100 words.");
    expect(text).not.toContain("Files touched so far");
    const checkOf = async () => {
      const part = (await store.messages(s.id)).flatMap((m) => m.parts).find((p) => p.type === "compaction");
      return part?.type === "compaction" && part.check ? { ...part.check, time: 0 } : undefined;
    };
    expect(await checkOf()).toEqual({ pins: 3, files: 1, reinjectedPins: 1, reinjectedFiles: 0, userMessages: 1, droppedUserMessages: 0, time: 0 });
    // The user rewrites the summary without its file list: the next request re-adds the file.
    const summary = (await store.messages(s.id)).find((m) => m.info.role === "assistant" && m.info.summary);
    if (!summary) throw new Error("no summary");
    await service.editSummary(s.id, summary.info.id, "## Goal\nTidy the logger.");
    llm.push(textTurn("done"));
    await service.prompt(s.id, { text: "Go on." });
    await service.ensureRunning(s.id);
    const again = llm.requests.at(-1)?.messages[2]?.content[0];
    expect(again?.type === "text" ? again.text : "").toContain("Files touched so far:\n- src/log.ts (read)");
    expect(await checkOf()).toEqual({ pins: 3, files: 1, reinjectedPins: 1, reinjectedFiles: 1, userMessages: 1, droppedUserMessages: 0, time: 0 });
  });
});
