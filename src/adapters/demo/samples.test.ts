import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PromptWiring } from "../../app/prompt-wiring";
import { Bus } from "../../core/bus";
import { exportSession, parseImport } from "../../core/export";
import { PermissionBroker } from "../../core/permission/broker";
import { systemClock } from "../../core/ports/clock";
import type { MessageWithParts } from "../../core/schema";
import { SessionService } from "../../core/session/loop";
import { defaultSettings, demoModelConfig } from "../../core/settings";
import { MemoryStore } from "../../testing/memory-store";
import { createLocalSandboxForTests } from "../sandbox/local/testing";
import { createTiktokenCounter } from "../tokens/tiktoken-counter";
import { createDemoLLM } from "./demo-llm";
import { InProcessPythonHost } from "../sandbox/local/runtimes/python-host";
import { PYTHON_DEMO_PROJECT, PYTHON_DEMO_PROMPT } from "./python-project";
import { DEMO_PROJECT } from "./sample-project";
import { SAMPLES } from "./samples";

const DIR = new URL("../../../public/samples/", import.meta.url);
const UPDATE = process.env.UPDATE_SAMPLES === "1";

// The Python sample runs real Python and git (one interpreter for the file).
const python = new InProcessPythonHost();

async function make(title: string, prompt: string, project: "dates" | "python") {
  const store = new MemoryStore();
  const settings = defaultSettings();
  const workspace = project === "python" ? PYTHON_DEMO_PROJECT : DEMO_PROJECT;
  const sandbox = await createLocalSandboxForTests({ files: workspace, ...(project === "python" ? { runtimes: { python, git: true } } : {}) });
  let service: SessionService | undefined;
  const wiring = new PromptWiring(systemClock, () => settings, (id) => service?.agentOf(id));
  service = new SessionService({
    store,
    llm: createDemoLLM(0),
    clock: systemClock,
    bus: new Bus(),
    permissions: new PermissionBroker(wiring.rules),
    settings: () => settings,
    model: () => demoModelConfig(settings),
    tools: wiring.tools,
    system: wiring.system,
    sandbox: async () => sandbox,
    counter: createTiktokenCounter(),
    version: "sample",
  });
  const s = await service.createSession({ title, demo: true });
  await service.prompt(s.id, { text: prompt });
  await service.ensureRunning(s.id);
  const file = await exportSession(store, s.id, { workspace });
  if (!file) throw new Error("export failed");
  return file;
}

/** What must stay the same between runs: roles, texts, tool calls and their outcomes (ids and times differ). */
function shape(messages: MessageWithParts[]) {
  return messages.map((m) => ({
    role: m.info.role,
    summary: m.info.role === "assistant" ? (m.info.summary ?? false) : undefined,
    parts: m.parts
      .filter((p) => p.type === "text" || p.type === "tool" || p.type === "compaction")
      .map((p) => (p.type === "text" ? p.text : p.type === "tool" ? `${p.tool} ${JSON.stringify(p.state.input)} ${p.state.status}` : "compaction")),
  }));
}

describe("shipped sample sessions", () => {
  it("the Python sample sends the Python demo's prompt", () => {
    expect(SAMPLES.find((s) => s.project === "python")?.prompt).toBe(PYTHON_DEMO_PROMPT);
  });

  for (const sample of SAMPLES) {
    it(`${sample.file} is what the demo model makes for "${sample.prompt}"`, async () => {
      const file = await make(sample.title, sample.prompt, sample.project);
      const path = new URL(sample.file, DIR);
      if (UPDATE) writeFileSync(path, `${JSON.stringify(file, null, 1)}\n`);
      expect(existsSync(path), `${sample.file} is missing: run npm run samples`).toBe(true);
      const parsed = parseImport(readFileSync(path, "utf8"));
      if (!parsed.ok) throw new Error(parsed.error);
      const shipped = parsed.value.sessions[0];
      expect(shipped?.info.title).toBe(sample.title);
      expect(shipped?.info.demo).toBe(true);
      expect(shape(shipped?.messages ?? [])).toEqual(shape(file.messages));
      expect(shipped?.messages.flatMap((m) => m.parts).every((p) => p.type !== "tool" || p.state.status === "completed")).toBe(true);
    }, 120_000);
  }
});
