/**
 * "Notify me when a run finishes or needs approval": kept in this browser (localStorage). The
 * browser's permission is asked only from the person's click on the setting, never on load.
 */
import { useSyncExternalStore } from "react";

const KEY = "tabcode.notify";
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

export const notifyPreference = {
  get: read,
  set(on: boolean): void {
    try {
      if (on) localStorage.setItem(KEY, "on");
      else localStorage.removeItem(KEY);
    } catch {
      // No storage: the choice lasts as long as nothing re-reads it.
    }
    for (const l of listeners) l();
  },
  subscribe(l: () => void): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};

export function useNotifyPreference(): boolean {
  return useSyncExternalStore(notifyPreference.subscribe, notifyPreference.get);
}

/** Whether system notifications can be shown now (setting on, API present, permission granted). */
export function canNotify(): boolean {
  return read() && typeof Notification !== "undefined" && Notification.permission === "granted";
}

/** Turns the setting on from a click: asks the browser when it has not been asked; the outcome in words. */
export async function enableNotifications(): Promise<{ ok: true } | { ok: false; message: string }> {
  if (typeof Notification === "undefined") return { ok: false, message: "This browser cannot show notifications; the tab title still shows a badge." };
  const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  if (permission !== "granted") return { ok: false, message: "Notifications are blocked for this site in the browser's settings; the tab title still shows a badge." };
  notifyPreference.set(true);
  return { ok: true };
}
