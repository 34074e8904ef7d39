import { Bus } from "../core/bus";
import { PermissionBroker } from "../core/permission/broker";
import { DEFAULT_RULES } from "../core/permission/evaluate";
import { type Clock, systemClock } from "../core/ports/clock";
import type { LLM } from "../core/ports/llm";
import type { Sandbox } from "../core/ports/sandbox";
import type { Store } from "../core/ports/store";
import type { Ruleset } from "../core/schema";
import { SessionService, type SessionServiceDeps } from "../core/session/loop";
import { defaultSettings, sessionModelConfig, type Settings } from "../core/settings";
import type { TokenCounter } from "../core/tokens/counter";
import type { Tool } from "../core/tools/tool";
import { MemoryStore } from "./memory-store";

export interface TestServiceOptions<S extends Store = MemoryStore> {
  llm: LLM;
  tools: Tool[];
  /** Overrides of the settings (default: an OpenAI-compatible gpt-4o-mini). */
  settings?: Partial<Settings>;
  rules?: Ruleset;
  sandbox?: Sandbox;
  counter?: TokenCounter;
  clock?: Clock;
  locks?: SessionServiceDeps["locks"];
  /** The system-prompt hook (default: the loop's built-in prompt). */
  system?: SessionServiceDeps["system"];
  historyDropped?: SessionServiceDeps["historyDropped"];
  userCommandsDone?: SessionServiceDeps["userCommandsDone"];
  userCommand?: SessionServiceDeps["userCommand"];
  /** The store (default: a new memory store): another service's (a second tab, the same data after a reload), or a real one. */
  store?: S;
  compactionGraceMs?: number;
}

/** The real session service over a memory store, for core tests. */
export function makeTestService<S extends Store = MemoryStore>(opts: TestServiceOptions<S>) {
  const store: S = opts.store ?? (new MemoryStore() as unknown as S);
  const bus = new Bus();
  const settings: Settings = { ...defaultSettings(), provider: "openai-compatible", modelID: "gpt-4o-mini", ...opts.settings };
  const permissions = new PermissionBroker(() => [opts.rules ?? DEFAULT_RULES]);
  const { sandbox } = opts;
  const service = new SessionService({
    store,
    llm: opts.llm,
    clock: opts.clock ?? systemClock,
    bus,
    permissions,
    settings: () => settings,
    model: (session) => sessionModelConfig(settings, session),
    tools: () => opts.tools,
    ...(sandbox ? { sandbox: async () => sandbox } : {}),
    counter: opts.counter,
    ...(opts.locks ? { locks: opts.locks } : {}),
    ...(opts.system ? { system: opts.system } : {}),
    ...(opts.historyDropped ? { historyDropped: opts.historyDropped } : {}),
    ...(opts.userCommandsDone ? { userCommandsDone: opts.userCommandsDone } : {}),
    ...(opts.userCommand ? { userCommand: opts.userCommand } : {}),
    ...(opts.compactionGraceMs ? { compactionGraceMs: opts.compactionGraceMs } : {}),
    version: "test",
  });
  return { store, bus, service, permissions, settings };
}
