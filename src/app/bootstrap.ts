/**
 * The composition root: the only place that picks concrete adapters and wires
 * them into the core services.
 */
import { createDemoLLM } from "../adapters/demo/demo-llm";
import { DexieStore, getSetting, installFlushOnPageHide, openDatabase, putSetting, type TabcodeDB } from "../adapters/storage";
import { Bus } from "../core/bus";
import { PermissionBroker } from "../core/permission/broker";
import { systemClock } from "../core/ports/clock";
import type { LLM } from "../core/ports/llm";
import { SessionService } from "../core/session/loop";
import { sessionModelConfig } from "../core/settings";
import { SandboxService } from "./sandbox-service";
import { WorkerTokenCounter } from "../adapters/tokens/worker-counter";
import type { TokenCounter } from "../core/tokens/counter";
import { webLocks } from "./locks";
import { PromptWiring } from "./prompt-wiring";
import { SettingsStore } from "./settings-store";

export const APP_VERSION = "0.1.0";

export interface AppServices {
  db: TabcodeDB;
  store: DexieStore;
  bus: Bus;
  permissions: PermissionBroker;
  settings: SettingsStore;
  sessions: SessionService;
  llm: LLM;
  sandbox: SandboxService;
  wiring: PromptWiring;
  /** Exact token counts (js-tiktoken in a Worker, started on first use). */
  counter: TokenCounter;
}

export type BootResult = { ok: true; services: AppServices } | { ok: false; error: string };

/** Routes each call to the demo model or the AI SDK adapter (loaded lazily) by the configured provider. */
function routerLLM(): LLM {
  const demo = createDemoLLM();
  let real: Promise<LLM> | undefined;
  const loadReal = () => {
    real ??= import("../adapters/llm/ai-sdk-llm").then((m) => m.createAiSdkLLM());
    return real;
  };
  return {
    async *stream(req) {
      if (req.model.provider === "demo") {
        yield* demo.stream(req);
        return;
      }
      const llm = await loadReal();
      yield* llm.stream(req);
    },
  };
}

export async function bootstrap(): Promise<BootResult> {
  const opened = await openDatabase();
  if (!opened.ok) return opened;
  const db = opened.value;
  const store = new DexieStore(db);
  installFlushOnPageHide(store);
  const settings = await SettingsStore.load({
    load: () => getSetting(db, "settings"),
    save: (v) => putSetting(db, "settings", v),
  });
  const bus = new Bus();
  // The broker asks the wiring for rules; the wiring asks the session service for each session's agent.
  let agentOf: (sessionID: string) => string | undefined = () => undefined;
  const wiring = new PromptWiring(systemClock, settings.get, (id) => agentOf(id));
  const permissions = new PermissionBroker(wiring.rules);
  const llm = routerLLM();
  const counter = new WorkerTokenCounter();
  const sandbox = new SandboxService(() => settings.get().sandbox);
  const sessions = new SessionService({
    store,
    llm,
    clock: systemClock,
    bus,
    permissions,
    settings: settings.get,
    model: (session) => sessionModelConfig(settings.get(), session),
    tools: wiring.tools,
    system: wiring.system,
    sandbox: (sessionID) => sandbox.sandboxFor(sessionID),
    locks: webLocks(),
    counter,
    version: APP_VERSION,
  });
  agentOf = (id) => sessions.agentOf(id);
  const services: AppServices = { db, store, bus, permissions, settings, sessions, llm, sandbox, wiring, counter };
  // A test and debugging seam: the same services the UI uses (no secrets beyond what IndexedDB already holds).
  Object.defineProperty(globalThis, "__tabcode", { value: services, configurable: true });
  return { ok: true, services };
}
