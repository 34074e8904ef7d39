import type { NextRequestSize } from "../core/compaction/next-request";

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
