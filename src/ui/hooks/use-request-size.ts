import { useEffect, useMemo, useSyncExternalStore } from "react";
import { type NextRequestSize, nextRequestSize } from "../../core/compaction/next-request";
import type { LLMToolSpec } from "../../core/ports/llm";
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
 * The size of a session's next request (`nextRequestSize`, the one count the
 * header, the X-ray and Replay show) for `sent` (the history as sent). The
 * system prompt and tools come from `SessionService.requestShape` (also after
 * a reload); their texts are counted by the tokenizer once and kept in the
 * loop's memo, so every view reads the same counts.
 */
export function useNextRequestSize(session: Session, sent: MessageWithParts[]): { size: NextRequestSize; shape?: RequestShape } {
  const { sessions, counter } = useServices();
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
      await new Promise<void>((resolve) => whenIdle(resolve));
      const shape = await sessions.requestShape(session.id).catch(() => undefined);
      if (!shape) return;
      // Count the system sections and tool specs into the loop's memo (the same counts the loop uses).
      await measureRequest(counter, { system: shape.system, tools: shape.tools, messages: [], encoding }, sessions.countMemo);
      next.shape = shape;
      changed();
    })();
  }, [session.id, key, sessions, counter, encoding]);
  const shape = shapes.get(session.id)?.shape;
  const ratio = sessions.calibrationRatio(model.modelID);
  const modelKey = JSON.stringify(model);
  // Recounted only when something it depends on changes (a parent re-render alone does not).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `model` is derived from settings and the session; its value (modelKey) is the dependency
  const size = useMemo(
    () => nextRequestSize({ sent, system: shape?.system, tools: shape?.tools, model, settings, encoding, ratio, memo: sessions.countMemo }),
    [sent, shape, modelKey, settings, encoding, ratio, sessions, version, sessions.countMemo.version],
  );
  return { size, shape };
}
