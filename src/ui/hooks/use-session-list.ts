import { useEffect, useState } from "react";
import type { Session } from "../../core/schema";
import { useServices } from "./services";

/** The shortest time between two reads of the list while sessions keep changing (an import writes hundreds). */
const REREAD_MS = 1_000;

/**
 * The sessions (archived or not), read again after sessions change: at once after a quiet while (a rename,
 * a new session), at most once a second during a burst of writes (a history import of thousands of
 * sessions would otherwise re-read and re-validate the whole list after every chunk).
 */
export function useSessionList(archived: boolean): Session[] | undefined {
  const { store } = useServices();
  const [list, setList] = useState<Session[]>();
  useEffect(() => {
    let live = true;
    let last = 0;
    let running = false;
    let again = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      last = Date.now();
      try {
        const sessions = await store.listSessions({ archived });
        if (live) setList(sessions);
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
        Math.max(0, last + REREAD_MS - Date.now()),
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
