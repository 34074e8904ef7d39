import { useEffect, useRef } from "react";

/**
 * App-wide UI commands that cross the component tree (slash commands, shortcuts, help menu), as DOM
 * events on window: the sender does not need a handle on the receiver.
 */
export interface AppEvents {
  "open-settings": undefined;
  "new-session": undefined;
  help: undefined;
  "switch-agent": { agent?: "build" | "plan" };
  "tour-restart": undefined;
  /** Opens the composer's model picker (`/model`). */
  "pick-model": undefined;
  /** Files of a session's workspace changed outside a step (a terminal command): the Files panel re-reads. */
  "workspace-changed": { sessionID: string };
  /** The user changed files the session's rules come from (AGENTS.md, a skill): its header reads them again. */
  "rules-changed": { sessionID: string; paths: string[] };
}

const PREFIX = "tabcode:";

export function emit<K extends keyof AppEvents>(name: K, detail?: AppEvents[K]): void {
  window.dispatchEvent(new CustomEvent(PREFIX + name, { detail }));
}

export function useAppEvent<K extends keyof AppEvents>(name: K, handler: (detail: AppEvents[K]) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const on = (e: Event) => ref.current((e as CustomEvent<AppEvents[K]>).detail);
    window.addEventListener(PREFIX + name, on);
    return () => window.removeEventListener(PREFIX + name, on);
  }, [name]);
}

/**
 * What a session's composer holds, kept for this tab (sessionStorage): text handed to it (the prompt a fork
 * was made from, a Start-fresh brief) and what the user typed survive a reload until it is sent.
 */
export const drafts = {
  set(sessionID: string, text: string): void {
    try {
      const key = `tabcode.draft.${sessionID}`;
      if (text === "") sessionStorage.removeItem(key);
      else sessionStorage.setItem(key, text);
    } catch {
      // No storage (or it is full): the box just starts empty after a reload.
    }
  },
  get(sessionID: string): string {
    try {
      return sessionStorage.getItem(`tabcode.draft.${sessionID}`) ?? "";
    } catch {
      return "";
    }
  },
};
