import { useEffect, useState, useSyncExternalStore } from "react";
import type { SandboxStatus } from "../../app/sandbox-service";
import { afterFirstPaint } from "../../app/warm-up";
import type { Sandbox } from "../../core/ports/sandbox";
import { useServices } from "./services";

export function useSandboxStatus(): SandboxStatus {
  const { sandbox } = useServices();
  return useSyncExternalStore(sandbox.subscribe, sandbox.status);
}

/**
 * The session's sandbox once it is open (undefined while opening, or with the error that stopped it).
 * Opened once the first screen has painted: choosing the backend and starting its Worker (chunks, the
 * persisted workspace) took ~16 ms of the first render's task on a cold open, before the messages showed.
 */
export function useSandbox(sessionID: string): { sandbox?: Sandbox; error?: string } {
  const { sandbox } = useServices();
  const [state, setState] = useState<{ sandbox?: Sandbox; error?: string }>({});
  useEffect(() => {
    let live = true;
    setState({});
    afterFirstPaint(() => {
      if (!live) return;
      sandbox.sandboxFor(sessionID).then(
        (sb) => live && setState({ sandbox: sb }),
        (e: unknown) => live && setState({ error: e instanceof Error ? e.message : String(e) }),
      );
    });
    return () => {
      live = false;
    };
  }, [sandbox, sessionID]);
  return state;
}
