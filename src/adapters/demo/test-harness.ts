/**
 * Test support for the demo model: the real session service, store, tools
 * and a local sandbox seeded with the sample project, plus a recording LLM
 * wrapper. Imported by tests only.
 */
import type { LLM, LLMEvent, LLMRequest } from "../../core/ports/llm";
import type { AssistantMessage, MessageWithParts, Ruleset, ToolPart } from "../../core/schema";
import type { SessionService } from "../../core/session/loop";
import { defaultSettings, type Settings } from "../../core/settings";
import { workspaceTools } from "../../core/tools/index";
import { todoWriteTool } from "../../core/tools/todo";
import type { Tool } from "../../core/tools/tool";
import type { MemoryStore } from "../../testing/memory-store";
import type { LocalRuntimes } from "../sandbox/local/runtimes/commands";
import { createLocalSandboxForTests } from "../sandbox/local/testing";
import { createDemoLLM } from "./demo-llm";
import { DEMO_PROJECT } from "./sample-project";
import { makeTestService } from "../../testing/session-service";

/** Records every request and the events answered, around the demo model. */
export class RecordingLLM implements LLM {
  readonly calls: { req: LLMRequest; events: LLMEvent[] }[] = [];

  constructor(private readonly inner: LLM = createDemoLLM(0)) {}

  async *stream(req: LLMRequest): AsyncIterable<LLMEvent> {
    const events: LLMEvent[] = [];
    this.calls.push({ req, events });
    for await (const ev of this.inner.stream(req)) {
      events.push(ev);
      yield ev;
    }
  }

  chat(): { req: LLMRequest; events: LLMEvent[] }[] {
    return this.calls.filter((c) => c.req.purpose === "chat");
  }
}

/** Settings with automatic compaction off: the plain scripted run, whatever its size. */
export const NO_AUTO_COMPACTION: Partial<Settings> = { compaction: { auto: false, prune: true, threshold: 1 } };

export interface DemoSetup {
  store: MemoryStore;
  service: SessionService;
  llm: RecordingLLM;
  settings: Settings;
  sandbox: Awaited<ReturnType<typeof createLocalSandboxForTests>>;
}

export async function setupDemo(
  opts: { files?: Record<string, string>; rules?: Ruleset; tools?: Tool[]; settings?: Partial<Settings>; llm?: RecordingLLM; runtimes?: LocalRuntimes } = {},
): Promise<DemoSetup> {
  const sandbox = await createLocalSandboxForTests({ files: opts.files ?? DEMO_PROJECT, runtimes: opts.runtimes });
  const llm = opts.llm ?? new RecordingLLM();
  const demo = { provider: defaultSettings().provider, modelID: defaultSettings().modelID, maxSteps: 20 };
  const { store, service, settings } = makeTestService({ llm, tools: opts.tools ?? [todoWriteTool, ...workspaceTools], settings: { ...demo, ...opts.settings }, rules: opts.rules, sandbox });
  return { store, service, llm, settings, sandbox };
}

type Assistant = MessageWithParts & { info: AssistantMessage };

export const assistants = (msgs: MessageWithParts[]): Assistant[] => msgs.filter((m): m is Assistant => m.info.role === "assistant");
export const toolParts = (msgs: MessageWithParts[]): ToolPart[] => msgs.flatMap((m) => m.parts.filter((p): p is ToolPart => p.type === "tool"));
export const texts = (m: MessageWithParts | undefined): string => (m?.parts ?? []).map((p) => (p.type === "text" ? p.text : "")).join("");
export const reasoning = (m: MessageWithParts | undefined): string => (m?.parts ?? []).map((p) => (p.type === "reasoning" ? p.text : "")).join("");

/** Prompts a new session and runs it to the end. */
export async function run(setup: DemoSetup, prompt: string, sessionID?: string): Promise<{ sessionID: string; msgs: MessageWithParts[] }> {
  const id = sessionID ?? (await setup.service.createSession()).id;
  await setup.service.prompt(id, { text: prompt });
  await setup.service.ensureRunning(id);
  return { sessionID: id, msgs: await setup.store.messages(id) };
}
