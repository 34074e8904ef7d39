import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { type NextRequestSize, nextRequestSize } from "../../core/compaction/next-request";
import type { LLMToolSpec, ModelConfig } from "../../core/ports/llm";
import { summaryInForce } from "../../core/compaction/after-summary";
import { modelMessageOptions } from "../../core/model-media";
import type { MessageWithParts, Session } from "../../core/schema";
import { sessionModelConfig } from "../../core/settings";
import { measureRequest } from "../../core/tokens/request-size";
import { whenIdle } from "../../app/warm-up";
import { useServices, useSessionStatus, useSettings } from "./services";

/** The system prompt and tools a session's next request carries. */
export interface RequestShape {
  system: string[];
  tools: LLMToolSpec[];
}

// One shape per session and request generation, shared by every view (header, X-ray, Replay).
const shapes = new Map<string, { key: string; shape?: RequestShape; pending?: Promise<void> }>();
const listeners = new Set<() => void>();
let version = 0;
const changed = () => {
  version++;
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => {
    listeners.delete(l);
  };
};
const getVersion = () => version;

/**
 * The extra message the loop sends after the summary in force (`afterSummaryOf`, loaded on demand: only
 * sessions with a summary need it), for `shown`/`sent` and the request's system sections.
 */
function useAfterSummary(
  session: Session,
  shown: MessageWithParts[] | undefined,
  sent: MessageWithParts[],
  system: string[] | undefined,
  model: ModelConfig,
): string | undefined {
  const [text, setText] = useState<{ n: number; text?: string }>();
  const needed = shown !== undefined && system !== undefined && summaryInForce(sent);
  // Views rebuild these arrays on every render; what matters is whether their items changed.
  const n = useChangeCount([JSON.stringify(session.pins ?? []), shown, sent, system, model.modelID, model.contextWindow]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `n` changes exactly when the inputs do
  useEffect(() => {
    if (!needed || !shown || !system) return;
    let live = true;
    void import("../../core/pins/after-compaction").then(({ afterSummaryOf }) => {
      const r = afterSummaryOf(session, { shown, sent }, system, model, Date.now(), modelMessageOptions(model));
      if (live) setText({ n, text: r.text });
    });
    return () => {
      live = false;
    };
  }, [needed, n]);
  return needed && text?.n === n ? text.text : undefined;
}

/** The last count of a request shape's system prompt and tools (`useNextRequestSize`): they run one after another. */
let shapeCounts: Promise<unknown> = Promise.resolve();

/** A number that changes when any of `deps` changes: arrays by their items (identity), the rest by value. */
function useChangeCount(deps: unknown[]): number {
  const ref = useRef<{ deps: unknown[]; n: number } | undefined>(undefined);
  const same = (a: unknown, b: unknown) => (Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((x, i) => x === b[i]) : a === b);
  if (!ref.current || ref.current.deps.length !== deps.length || !deps.every((d, i) => same(d, ref.current?.deps[i])))
    ref.current = { deps, n: (ref.current?.n ?? 0) + 1 };
  return ref.current.n;
}

/**
 * The size of a session's next request (`nextRequestSize`, the one count the
 * header, the X-ray and Replay show) for `sent` (the history as sent). The
 * system prompt and tools come from `SessionService.requestShape` (also after
 * a reload); their texts are counted by the tokenizer once and kept in the
 * loop's memo, so every view reads the same counts. With `shown`, after a
 * summary it counts the message the loop adds there (`afterSummary`).
 */
export function useNextRequestSize(
  session: Session,
  sent: MessageWithParts[],
  shown?: MessageWithParts[],
): { size: NextRequestSize; shape?: RequestShape; afterSummary?: string } {
  const { sessions, counter, store } = useServices();
  // Counts stored for the history's parts (in place, see `DexieStore.watchCounts`): recount with them.
  const counted = useSyncExternalStore(
    (l) => store.watchCounts(l),
    () => store.countsVersion(),
  );
  const settings = useSettings();
  const status = useSessionStatus(session.id);
  const version = useSyncExternalStore(subscribe, getVersion);
  const model = sessionModelConfig(settings, session);
  const encoding = counter.encodingFor(model.modelID);
  const last = sessions.lastRequest(session.id);
  const key = `${last?.time ?? "built"}|${session.agent ?? ""}|${model.modelID}|${status.type === "idle" ? "idle" : "busy"}`;
  useEffect(() => {
    const entry = shapes.get(session.id);
    if (entry?.key === key) return;
    const next: { key: string; shape?: RequestShape; pending?: Promise<void> } = { key, shape: entry?.shape };
    shapes.set(session.id, next);
    next.pending = (async () => {
      // Built when the page is idle: it loads the agent loop and the prompt's sources, which the first paint does not need.
      // A request this tab has just sent needs none of that (its system prompt and tools are in memory): taken at once,
      // so the header does not count without them until the page is next idle.
      if (!sessions.lastRequest(session.id)) await new Promise<void>((resolve) => whenIdle(resolve));
      const shape = await sessions.requestShape(session.id).catch(() => undefined);
      if (!shape) return;
      // Counted into the loop's memo first (the same counts the loop uses), so the header and the X-ray never
      // show the system prompt and tools estimated while the tokenizer loads (the header says "…" meanwhile).
      // One at a time: each plans once the previous one's counts are in the memo (while the tokenizer loaded, the
      // busy and idle changes of a first send queued the same 9 KB of system prompt and tools four times, traced).
      const counting = shapeCounts.then(() => measureRequest(counter, { system: shape.system, tools: shape.tools, messages: [], encoding }, sessions.countMemo));
      shapeCounts = counting.catch(() => undefined);
      await counting;
      next.shape = shape;
      changed();
    })();
  }, [session.id, key, sessions, counter, encoding]);
  const shape = shapes.get(session.id)?.shape;
  const afterSummary = useAfterSummary(session, shown, sent, shape?.system, model);
  const ratio = sessions.calibrationRatio(model.modelID);
  // (The key stays out of it: it changes nothing here.)
  const modelKey = JSON.stringify({ ...model, apiKey: undefined });
  // While a request is being prepared in this tab (from Send until its answer starts) the size shown stays as it
  // was: sizing a long history is a pass over all of it (~20 ms at 2,000 parts right after a page load), and it
  // ran in the middle of the send. It follows as soon as the request is out.
  const preparing = sessions.preparing;
  const [, setQuiet] = useState(0);
  useEffect(() => {
    if (!preparing) return;
    let live = true;
    void sessions.whenQuiet().then(() => {
      if (live) setQuiet((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [preparing, sessions]);
  // The size last shown, and whether the system prompt and tools were in it (`shape` known then).
  const lastSize = useRef<{ size: NextRequestSize; shaped: boolean } | undefined>(undefined);
  // Recounted only when something it depends on changes (a parent re-render alone does not).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `model` is derived from settings and the session; its value (modelKey) is the dependency
  const size = useMemo(
    // The loop counts the after-summary message with the system sections (ContextGuard.measure); so does this.
    () =>
      // A size counted before the shape was known is not kept once it is: it would be shown as a percentage
      // without the system prompt and tools in it ("0%" for a first "Hi" on a loaded machine, seen in a test).
      preparing && lastSize.current && (lastSize.current.shaped || !shape)
        ? lastSize.current.size
        : nextRequestSize({
            sent,
            system: afterSummary && shape ? [...shape.system, afterSummary] : shape?.system,
            tools: shape?.tools,
            model,
            settings,
            encoding,
            ratio,
            memo: sessions.countMemo,
          }),
    [sent, shape, afterSummary, modelKey, settings, encoding, ratio, sessions, version, sessions.countMemo.version, counted, preparing],
  );
  lastSize.current = { size, shaped: shape !== undefined && (lastSize.current?.size !== size || lastSize.current.shaped) };
  return { size, shape, afterSummary };
}
