import type { KeyboardEvent, PointerEvent } from "react";

interface Props {
  label: string;
  /** Which edge of the panel the handle sits on: dragging towards the outside makes it narrower. */
  side: "left" | "right";
  width: number;
  min: number;
  max: number;
  onResize: (w: number) => void;
}

/** A vertical splitter: drag with the pointer, or focus it and use ←/→ (Home/End for min/max). */
export function ResizeHandle({ label, side, width, min, max, onResize }: Props) {
  const sign = side === "left" ? 1 : -1;
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const startX = e.clientX;
    const start = width;
    const el = e.currentTarget;
    el.setPointerCapture(e.pointerId);
    const move = (ev: globalThis.PointerEvent) => onResize(start + sign * (ev.clientX - startX));
    const up = () => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 64 : 16;
    const keys: Record<string, number> = { ArrowRight: width + sign * step, ArrowLeft: width - sign * step, Home: min, End: max };
    const next = keys[e.key];
    if (next === undefined) return;
    e.preventDefault();
    onResize(next);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable window splitter is role="separator" (WAI-ARIA), there is no element for it
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      className={`resize-handle resize-${side}`}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
}
