import { createContext, useContext } from "react";
import type { Panel } from "./use-panel";

export interface Layout {
  /** Narrow screen: side panels are drawers. */
  narrow: boolean;
  sessions: Panel;
  files: Panel;
}

export const LayoutContext = createContext<Layout | null>(null);

export function useLayout(): Layout {
  const l = useContext(LayoutContext);
  if (!l) throw new Error("useLayout outside LayoutContext");
  return l;
}

export const SESSIONS_PANEL = { id: "sessions-panel", width: 280, min: 200, max: 480 } as const;
export const FILES_PANEL = { id: "files-panel", width: 300, min: 220, max: 640 } as const;
