import type { NextRequestSize } from "../core/compaction/next-request";
import { lookupModel } from "../core/model-table";
import type { ModelConfig } from "../core/ports/llm";
import type { MessageWithParts, Session } from "../core/schema";
import { formatTokens } from "./format";

/** The native `<meter>` attributes of the header's context meter. */
export interface ContextMeterAttributes {
  min: number;
  max: number;
  low: number;
  high: number;
  optimum: number;
  value: number;
}

/**
 * The context meter's attributes for the next request's size. A `<meter>` with its optimum at 0 is drawn
 * green below `low`, amber from `low` to `high` and red only *above* `high` (HTML's "even less good"
 * region). Red must mean the size at which auto-compaction starts (`total ≥ overflowAt`, as the
 * X-ray's bar shows it), but the value is capped at the usable window, and with the default threshold (1)
 * `overflowAt` is that cap: with `high = overflowAt` a context at 215 % stayed amber. Sizes are whole
 * tokens, so `high` is one below `overflowAt`; `low` never exceeds it (the browser would move `high` up
 * to `low`). A model whose window is unknown (usable 0) has nothing to fill: the meter stays empty.
 */
export function contextMeterAttributes(size: Pick<NextRequestSize, "total" | "usable" | "overflowAt">): ContextMeterAttributes {
  if (size.usable <= 0) return { min: 0, max: 1, low: 1, high: 1, optimum: 0, value: 0 };
  const max = size.usable;
  const high = Math.max(0, Math.min(size.overflowAt, max) - 1);
  return { min: 0, max, low: Math.min(max * 0.6, high), high, optimum: 0, value: Math.min(Math.max(0, size.total), max) };
}

/** The model a session was recorded on, when the demo model answers it instead (no API key set). */
export interface DemoStandIn {
  modelID: string;
  /** Its window, when the model table knows it. */
  contextWindow?: number;
}

/**
 * When the next request goes to the demo model (Settings has no provider with a key) although the session
 * is no demo session and was recorded on another model (an imported history, or a key since removed):
 * that model. Read from the session's own choice, else its newest answer.
 */
export function demoStandIn(
  model: Pick<ModelConfig, "provider">,
  session: Pick<Session, "demo" | "model">,
  shown: readonly MessageWithParts[],
): DemoStandIn | undefined {
  if (model.provider !== "demo" || session.demo) return undefined;
  const own = (providerID: string, modelID: string) => providerID !== "demo" && modelID !== "demo-agent" && modelID !== "unknown" && modelID.trim() !== "";
  let id = session.model && own(session.model.providerID, session.model.modelID) ? session.model.modelID : undefined;
  for (let i = shown.length - 1; i >= 0 && id === undefined; i--) {
    const info = shown[i]?.info;
    if (info?.role === "assistant" && own(info.providerID, info.modelID)) id = info.modelID;
  }
  if (id === undefined) return undefined;
  const window = lookupModel(id)?.contextWindow;
  return window ? { modelID: id, contextWindow: window } : { modelID: id };
}

/**
 * The meter's figure and, when the demo stands in for the session's model, the note that says so. The meter
 * measures the request the next Send makes, on the model that will answer it; a session far over the demo's
 * window reads ">100%" with the size it needs rather than "2150%", and says how to continue it on its own model.
 */
export function meterText(
  size: Pick<NextRequestSize, "total" | "fraction">,
  model: Pick<ModelConfig, "contextWindow">,
  standIn: DemoStandIn | undefined,
): { percent: string; note?: string } {
  const percent = `${Math.round(size.fraction * 100)}%`;
  if (!standIn) return { percent };
  const own = `${standIn.modelID}${standIn.contextWindow ? ` (${formatTokens(standIn.contextWindow)} window)` : ""}`;
  if (size.fraction <= 1)
    return { percent, note: `The demo model (${formatTokens(model.contextWindow)} window) answers here, not ${own}: add an API key in Settings to continue on it.` };
  return {
    percent: ">100%",
    note: `Demo model: ${formatTokens(model.contextWindow)} window — this session needs ~${formatTokens(size.total)}. Add an API key in Settings to continue it on ${own}.`,
  };
}
