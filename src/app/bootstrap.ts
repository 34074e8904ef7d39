/**
 * The composition root: the only place that picks concrete adapters and wires
 * them into the core services.
 */
import { shellCommandLine, shellCommandsDone } from "./shell-runs";
import { parseRoute } from "../ui/hooks/use-route";
import { dismissGlance } from "../ui/glance/dismiss";
import { DexieStore, getSetting, installFlushOnPageHide, openDatabase, putSetting, type TabcodeDB } from "../adapters/storage";
import { pageStorage } from "../adapters/storage/page-storage";
import { Bus } from "../core/bus";
import { PermissionBroker } from "../core/permission/broker";
import { systemClock } from "../core/ports/clock";
import type { LLM, ModelConfig } from "../core/ports/llm";
import { LazySessions } from "./lazy-sessions";
import { modelConfig, sessionModelConfig } from "../core/settings";
import { SandboxService } from "./sandbox-service";
import { WorkerTokenCounter } from "../adapters/tokens/worker-counter";
import type { TokenCounter } from "../core/tokens/counter";
import { webLocks } from "./locks";
import { PromptWiring } from "./prompt-wiring";
import { sessionApprovals } from "./approvals";
import { pageMove, syncIsolateFlag } from "./isolation";
import { SettingsStore } from "./settings-store";
import { wakeServiceWorker } from "./service-worker";
import { finishPendingDeletes, snapshotCollector } from "./storage-gc";
import { afterFirstPaint, holdIdleWorkDuring, warmUp, whenIdle } from "./warm-up";
import { nextPendingDeleteDue, PENDING_DELETES_KEY, stalePendingDeletes } from "./pending-deletes";

/** How long an automatic summary is shown before it starts by itself. */
const COMPACTION_GRACE_MS = 5_000;

export const APP_VERSION = "0.1.0";

export interface AppServices {
  db: TabcodeDB;
  store: DexieStore;
  bus: Bus;
  permissions: PermissionBroker;
  settings: SettingsStore;
  sessions: LazySessions;
  llm: LLM;
  sandbox: SandboxService;
  wiring: PromptWiring;
  /** Exact token counts (tiktoken vocabularies in a Worker, started on first use). */
  counter: TokenCounter;
  /**
   * Loads what a send needs now (once); the composer calls it when the user starts typing and on Send, with the
   * session's model (a demo session's is the demo model, whatever Settings say; the default is Settings').
   */
  warm?: (model?: ModelConfig) => Promise<void>;
}

export type BootResult = { ok: true; services: AppServices } | { ok: false; error: string };

/**
 * Routes each call to the demo model or the AI SDK adapter (in its worker) by
 * the configured provider. Both are loaded on first use (neither is in the
 * entry bundle); `preload` loads one ahead of the first send, when the app is idle. `beforeRequest`
 * runs as each real provider's request is handed over (the page wakes its service worker there).
 */
export function routerLLM(beforeRequest: () => void = () => undefined): LLM & { preload(config: ModelConfig): Promise<void> } {
  let demo: Promise<LLM> | undefined;
  let real: Promise<LLM & { preload(config: ModelConfig): Promise<void> }> | undefined;
  // A failed load (a chunk that could not be fetched) is forgotten, so the next call tries again.
  const load = (provider: string): Promise<LLM & { preload?(config: ModelConfig): Promise<void> }> => {
    if (provider === "demo") {
      demo ??= import("../adapters/demo/demo-llm").then(
        (m) => m.createDemoLLM(),
        (e: unknown) => {
          demo = undefined;
          throw e;
        },
      );
      return demo;
    }
    // The AI SDK runs in a worker: building and sending a long request, and parsing its answer, stay off the page.
    real ??= import("../adapters/llm/worker-llm").then(
      (m) => new m.WorkerLLM(),
      (e: unknown) => {
        real = undefined;
        throw e;
      },
    );
    return real;
  };
  return {
    async *stream(req) {
      if (req.model.provider !== "demo") beforeRequest();
      const llm = await load(req.model.provider);
      yield* llm.stream(req);
    },
    /** The adapter and, for a real provider, its package and provider object (built from `config`, nothing sent). */
    async preload(config) {
      const llm = await load(config.provider);
      await llm.preload?.(config);
    },
  };
}

export async function bootstrap(): Promise<BootResult> {
  const opening = openDatabase();
  // The first use of sessionStorage in a page loads it synchronously (1-9 ms here); the composer reads its draft
  // there in the session's first render. Done now, while the database opens and the main thread waits anyway.
  try {
    globalThis.sessionStorage?.getItem("tabcode.warm");
  } catch {
    // No storage (a sandboxed frame): the composer's drafts say so themselves.
  }
  const opened = await opening;
  if (!opened.ok) return opened;
  const db = opened.value;
  const store = new DexieStore(db);
  // Streamed text a killed tab journaled but had not merged yet goes into its part before anything reads it.
  // (Settings are read meanwhile: a cold open waits for the slower of the two, not both.)
  const recovered = store.recoverJournal().catch((e: unknown) => console.warn("tabcode: could not recover streamed text", e));
  // The session a link opens is read while the settings load and the first screen renders (after the
  // journal's text is in its parts): the first paint of a long session waits for that read.
  // So is a session opened later in the app, from the moment its address changes: its view would start the read
  // only once React has rendered it and run its effects (about 12 ms later, after a frame; traced).
  const prefetchRoute = () => {
    const route = parseRoute(globalThis.location?.hash ?? "");
    if (route.name === "session") void recovered.then(() => store.prefetchMessages(route.sessionID));
  };
  prefetchRoute();
  globalThis.addEventListener?.("hashchange", prefetchRoute);
  // The snapshot painted for the address the page opened with is not what another address shows.
  globalThis.addEventListener?.("hashchange", () => globalThis.document && dismissGlance(globalThis.document));
  const [, settings] = await Promise.all([
    recovered,
    SettingsStore.load({
      load: () => getSetting(db, "settings"),
      save: (v) => putSetting(db, "settings", v),
    }),
  ]);
  // WebContainer needs the isolated page: move there before anything else starts (isolation.ts).
  syncIsolateFlag(settings.get().sandbox, pageStorage());
  settings.subscribe(() => syncIsolateFlag(settings.get().sandbox, pageStorage()));
  const move = globalThis.location && pageMove(settings.get().sandbox);
  if (move) {
    globalThis.location.replace(move);
    // The page is leaving: nothing more starts here.
    return new Promise<never>(() => undefined);
  }
  installFlushOnPageHide(store);
  const bus = new Bus();
  // The broker asks the wiring for rules; the wiring asks the session service for each session's agent.
  let agentOf: (sessionID: string) => string | undefined = () => undefined;
  const wiring = new PromptWiring(systemClock, settings.get, (id) => agentOf(id));
  const permissions = new PermissionBroker(wiring.rules, sessionApprovals(store));
  const llm = routerLLM(wakeServiceWorker);
  const counter = new WorkerTokenCounter();
  const sandbox = new SandboxService(() => settings.get().sandbox);
  let services: AppServices | undefined;
  // Snapshot storage no session names any more, after a live session drops history (finished after a reload).
  const snapshots = snapshotCollector(() => services);
  const sessions = new LazySessions({
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
    historyDropped: () => snapshots.dropped(),
    userCommandsDone: shellCommandsDone,
    userCommand: shellCommandLine,
    // An automatic summary waits this long for the user (Cancel / Summarise now) before it starts.
    compactionGraceMs: COMPACTION_GRACE_MS,
    version: APP_VERSION,
  });
  agentOf = (id) => sessions.agentOf(id);
  holdIdleWorkDuring(sessions);
  // The model worker boots on its own thread as soon as the first screen has painted, not when the page is
  // idle: loading the AI SDK there takes a few hundred milliseconds, which a send right after opening the
  // page would otherwise wait for (before the paint it would compete with it for the CPU).
  afterFirstPaint(() => {
    const model = modelConfig(settings.get());
    if (model.provider !== "demo") void llm.preload(model).catch(() => undefined);
  });
  // When idle after the first render: the model adapter, the tools and the tokenizer, ahead of the first send.
  const warmNow = warmUp({ settings: settings.get, llm, wiring, counter, sessions }).now;
  // Typing a message also wakes the service worker, which the request will pass through (see wakeServiceWorker),
  // and opens a connection to the session's provider (see preconnectProvider; never for a demo session).
  const warm = (model: ModelConfig = modelConfig(settings.get())) => {
    wakeServiceWorker();
    // Loaded on the first keystroke (the provider presets stay out of the entry).
    if (model.provider !== "demo") void import("./preconnect").then((m) => m.preconnectProvider(model)).catch(() => undefined);
    return warmNow();
  };
  services = { db, store, bus, permissions, settings, sessions, llm, sandbox, wiring, counter, warm };
  snapshots.start();
  // Files of sessions deleted by a page that closed while their Undo was still offered: now when their time is
  // up, else once it is (this page may stay open for hours).
  {
    const app = services;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Finishes what is due, then waits for the next entry to come due (one another tab adds later too).
    const arm = (): void => {
      clearTimeout(timer);
      const due = nextPendingDeleteDue();
      if (due !== undefined) timer = setTimeout(finish, due + 1_000);
    };
    const finish = (): void => {
      if (stalePendingDeletes().length > 0) whenIdle(() => void finishPendingDeletes(app).catch(() => undefined).then(arm));
      else arm();
    };
    finish();
    window.addEventListener("storage", (e) => {
      if (e.key === PENDING_DELETES_KEY) arm();
    });
  }
  // Terminal logs (command lines, output) of sessions that no longer exist, left by versions that kept them: one
  // read of the session keys for all of them.
  whenIdle(() =>
    void import("./terminal-log")
      .then(({ sweepTerminalLogs }) => sweepTerminalLogs((ids) => store.existingSessionIDs(ids)))
      .catch(() => undefined),
  );
  // Search: tool inputs stored before they were indexed as written get their words again, a chunk per idle moment.
  // Not before the page has been idle a while: it is no part of what the first screen or the first send needs.
  setTimeout(() => whenIdle(() => void store.reindexToolInputs(() => new Promise((resume) => whenIdle(resume))).catch(() => undefined)), 10_000);
  // A test and debugging seam: the same services the UI uses (no secrets beyond what IndexedDB already holds).
  Object.defineProperty(globalThis, "__tabcode", { value: services, configurable: true });
  return { ok: true, services };
}
