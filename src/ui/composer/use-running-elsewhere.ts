import { useEffect, useState } from "react";
import { useServices } from "../hooks/services";

/**
 * Polls whether another tab runs this session (Web Locks). The composer says so; a message sent meanwhile is
 * written under the session's prompt lock and answered by that tab's run (this tab never starts a second run).
 */
export function useRunningElsewhere(sessionID: string, busyHere: boolean): boolean {
  const { sessions } = useServices();
  const [elsewhere, setElsewhere] = useState(false);
  useEffect(() => {
    if (busyHere) {
      setElsewhere(false);
      return;
    }
    let live = true;
    const check = () => sessions.runningElsewhere(sessionID).then((v) => live && setElsewhere(v), () => undefined);
    void check();
    const t = setInterval(check, 1000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [sessions, sessionID, busyHere]);
  return elsewhere;
}
