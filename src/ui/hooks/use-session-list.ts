import { useEffect, useState } from "react";
import type { Session } from "../../core/schema";
import { useServices } from "./services";

/** The longest wait between two reads of the list while sessions keep changing. */
const REREAD_MAX_MS = 1_000;
/** Between two reads the list waits this many times as long as the last read took. */
const REREAD_FACTOR = 4;

/**
 * The sessions (archived or not), read again after sessions change. The wait between two reads scales
 * with what a read costs (four times its duration, at most a second): a short list follows every
 * change at once (a new session, a rename), while a history import of thousands of sessions does not
 * re-read and re-validate the whole list after every chunk.
 */
export function useSessionList(archived: boolean): Session[] | undefined {
  const { store } = useServices();
  const [list, setList] = useState<Session[]>();
  useEffect(() => {
    let live = true;
    let last = 0;
    let gap = 0;
    let running = false;
    let again = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      const started = Date.now();
      try {
        const sessions = await store.listSessions({ archived });
        if (live) setList(sessions);
        last = Date.now();
        gap = Math.min(REREAD_MAX_MS, REREAD_FACTOR * (last - started));
      } catch {
        // The database went away: keep showing what was read.
      } finally {
        running = false;
        if (again && live) {
          again = false;
          schedule();
        }
      }
    };
    const schedule = () => {
      if (timer !== undefined) return;
      timer = setTimeout(
        () => {
          timer = undefined;
          void read();
        },
        Math.max(0, last + gap - Date.now()),
      );
    };
    void read();
    const off = store.onSessionsChanged(schedule);
    return () => {
      live = false;
      off();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [store, archived]);
  return list;
}
