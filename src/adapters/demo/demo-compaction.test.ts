import { describe, expect, it } from "vitest";
import { CONTINUE_PROMPT, processCompaction } from "../../core/compaction/process";
import { createCompactionRequest } from "../../core/compaction/summarize";
import { systemClock } from "../../core/ports/clock";
import type { MessageWithParts } from "../../core/schema";
import { COMPACTION_QUESTION, toModelMessages } from "../../core/conversation/to-model";
import { filterCompacted } from "../../core/conversation/view";
import { modelConfig } from "../../core/settings";
import { DEMO_FIXED_LINE } from "./sample-project";
import { COMPACTED_NOTE } from "./texts";
import { assistants, type DemoSetup, NO_AUTO_COMPACTION, run, setupDemo, texts, toolParts } from "./test-harness";

const fileText = async (setup: DemoSetup, rel: string) => new TextDecoder().decode(await setup.sandbox.fs.readFile(`${setup.sandbox.root}/${rel}`));

/** Compacts a finished session by hand (auto: the loop then answers the "continue" message). */
async function compactNow(setup: DemoSetup, sessionID: string): Promise<string> {
  const session = await setup.store.getSession(sessionID);
  if (!session) throw new Error("no session");
  const request = await createCompactionRequest(setup.store, session, { auto: true, now: Date.now() });
  const result = await processCompaction(
    { store: setup.store, llm: setup.llm, clock: systemClock, model: modelConfig(setup.settings) },
    { sessionID, messageID: request.message.id, signal: new AbortController().signal },
  );
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return texts((await setup.store.messages(sessionID)).find((m) => m.info.id === result.summary.id));
}

const summaries = (msgs: MessageWithParts[]) => assistants(msgs).filter((m) => m.info.summary);
const continued = (setup: DemoSetup) => setup.llm.chat().find((c) => JSON.stringify(c.req.messages).includes(CONTINUE_PROMPT));

describe("demo model: compaction", () => {
  it("writes a deterministic summary with the expected headings from the transcript", async () => {
    const summaryOf = async () => {
      const setup = await setupDemo({ settings: NO_AUTO_COMPACTION });
      const { sessionID } = await run(setup, "Fix the date bug");
      return compactNow(setup, sessionID);
    };
    const text = await summaryOf();
    const headings = text.split("\n").filter((l) => l.startsWith("## "));
    expect(headings).toEqual(["## Goal", "## Instructions", "## Discoveries", "## Accomplished", "## Relevant files", "## Commands run"]);
    expect(text).toContain('- The user asked: "Fix the date bug"');
    expect(text).toContain("the month line is correct");
    expect(text).toContain("The date check printed PASS.");
    expect(text).toContain("- [x] Fixed the month in formatDate (src/dates.js)");
    expect(text).toContain("- Answered the user.");
    expect(text).toMatch(/^- src\/dates\.js \(read, edited\)$/m);
    expect(text).toContain("- `bash scripts/check.sh`");
    expect(await summaryOf()).toBe(text);
  });

  it("says in the summary that the workspace has no sample project, and the run resumed from it does not look for one", async () => {
    const setup = await setupDemo({ files: {}, settings: NO_AUTO_COMPACTION });
    const { sessionID, msgs: before } = await run(setup, "Fix the date bug");
    const text = await compactNow(setup, sessionID);
    expect(text).toContain("- The workspace does not hold the sample project (no src/dates.js, no scripts/check.sh).");
    expect(text).not.toContain("tiny date library");
    await setup.service.ensureRunning(sessionID);
    const after = (await setup.store.messages(sessionID)).slice(before.length);
    expect(toolParts(after)).toHaveLength(0);
    expect(texts(assistants(after).at(-1))).not.toMatch(/src\/dates\.js (is|has)|month line/);
  });

  it("answers the continue message after a finished run with a short text, not a restart", async () => {
    const setup = await setupDemo({ settings: NO_AUTO_COMPACTION });
    const { sessionID, msgs: before } = await run(setup, "Fix the date bug");
    await compactNow(setup, sessionID);
    await setup.service.ensureRunning(sessionID);
    const after = (await setup.store.messages(sessionID)).slice(before.length);
    expect(toolParts(after)).toHaveLength(0);
    const last = assistants(after).at(-1);
    expect(last?.info.summary).toBeFalsy();
    expect(texts(last)).toContain("**compacted**");
    expect(texts(last).length).toBeLessThan(600);
    // The model saw the summary (question, answer), the user's own earlier words right after it, then continue.
    const sent = setup.llm.chat().at(-1)?.req.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user", "user"]);
    expect(JSON.stringify(sent[0])).toContain(COMPACTION_QUESTION);
    expect(JSON.stringify(sent[2])).toContain("[1] Fix the date bug");
    expect(JSON.stringify(sent[3])).toContain(CONTINUE_PROMPT);
  });

  it("fills the built-in 6,000-token window within the fix run: the loop compacts once and the run resumes from the summary", async () => {
    const setup = await setupDemo();
    const { msgs } = await run(setup, "Fix the date bug");
    expect(summaries(msgs)).toHaveLength(1);
    expect(summaries(msgs)[0]?.info.error).toBeUndefined();
    // Every scripted step ran once, in order, across the compaction.
    expect(toolParts(msgs).map((t) => [t.tool, t.state.status])).toEqual(
      ["todowrite", "list", "read", "edit", "bash", "todowrite"].map((t) => [t, "completed"]),
    );
    expect(await fileText(setup, "src/dates.js")).toContain(DEMO_FIXED_LINE);
    // The first request after the compaction held no tool results: the summary carried the progress.
    expect(continued(setup)?.req.messages.some((m) => m.role === "tool")).toBe(false);
    const final = texts(filterCompacted(msgs).at(-1));
    expect(final.startsWith(COMPACTED_NOTE)).toBe(true);
    expect(final).toContain("now prints **PASS**");
    expect(toModelMessages(filterCompacted(msgs))[0]?.content).toEqual([{ type: "text", text: COMPACTION_QUESTION }]);
  });

  it("resumes from any point: a smaller window compacts earlier and the run still ends fixed", async () => {
    const setup = await setupDemo({ settings: { models: { "demo-agent": { contextWindow: 5_000, maxOutputTokens: 1_000, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } } } } });
    const { msgs } = await run(setup, "Fix the date bug");
    expect(summaries(msgs).length).toBeGreaterThanOrEqual(1);
    expect(await fileText(setup, "src/dates.js")).toContain(DEMO_FIXED_LINE);
    const done = toolParts(msgs).filter((t) => t.state.status === "completed");
    expect(done.map((t) => t.tool)).toEqual(["todowrite", "list", "read", "edit", "bash", "todowrite"]);
    const bash = done[4];
    expect(bash?.state.status === "completed" && bash.state.output).toContain("PASS");
    expect(toolParts(msgs).every((t) => t.state.status === "completed")).toBe(true);
  });
});
