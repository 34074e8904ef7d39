import { useCallback, useMemo, useState } from "react";

export interface PanelState {
  /** Desktop: the panel is folded away. */
  collapsed: boolean;
  /** Desktop: width in CSS pixels. */
  width: number;
  /** Narrow screens: the drawer is open. */
  open: boolean;
}

export interface Panel extends PanelState {
  setCollapsed: (v: boolean) => void;
  setWidth: (w: number) => void;
  setOpen: (v: boolean) => void;
}

export const clampWidth = (w: number, min: number, max: number): number => Math.round(Math.min(max, Math.max(min, w)));

function read(key: string, fallback: number): Pick<PanelState, "collapsed" | "width"> {
  try {
    const raw = JSON.parse(localStorage.getItem(key) ?? "null") as unknown;
    if (raw && typeof raw === "object" && "width" in raw && "collapsed" in raw && typeof raw.width === "number" && typeof raw.collapsed === "boolean") return { width: raw.width, collapsed: raw.collapsed };
  } catch {
    // Unreadable or unavailable storage: start from the defaults.
  }
  return { width: fallback, collapsed: false };
}

/** A side panel's collapsed/width (kept across reloads) and drawer state. */
export function usePanel(key: string, defaultWidth: number, min: number, max: number): Panel {
  const [state, setState] = useState<PanelState>(() => ({ ...read(key, defaultWidth), open: false }));
  const save = useCallback(
    (next: PanelState) => {
      try {
        localStorage.setItem(key, JSON.stringify({ width: next.width, collapsed: next.collapsed }));
      } catch {
        // Storage unavailable: the layout just is not remembered.
      }
    },
    [key],
  );
  const update = useCallback(
    (patch: Partial<PanelState>) =>
      setState((s) => {
        const next = { ...s, ...patch };
        save(next);
        return next;
      }),
    [save],
  );
  return useMemo(
    () => ({
      ...state,
      width: clampWidth(state.width, min, max),
      setCollapsed: (collapsed: boolean) => update({ collapsed }),
      setWidth: (w: number) => update({ width: clampWidth(w, min, max) }),
      setOpen: (open: boolean) => update({ open }),
    }),
    [state, update, min, max],
  );
}
