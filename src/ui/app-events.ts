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

/** Text handed to a session's composer (e.g. the prompt a fork was made from); read once. */
export const drafts = {
  set(sessionID: string, text: string): void {
    try {
      sessionStorage.setItem(`tabcode.draft.${sessionID}`, text);
    } catch {
      // No storage: the fork just starts with an empty box.
    }
  },
  take(sessionID: string): string {
    try {
      const key = `tabcode.draft.${sessionID}`;
      const v = sessionStorage.getItem(key) ?? "";
      sessionStorage.removeItem(key);
      return v;
    } catch {
      return "";
    }
  },
};
