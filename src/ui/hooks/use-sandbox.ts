import { useEffect, useState, useSyncExternalStore } from "react";
import type { SandboxStatus } from "../../app/sandbox-service";
import type { Sandbox } from "../../core/ports/sandbox";
import { useServices } from "./services";

export function useSandboxStatus(): SandboxStatus {
  const { sandbox } = useServices();
  return useSyncExternalStore(sandbox.subscribe, sandbox.status);
}

/** The session's sandbox once it is open (undefined while opening, or with the error that stopped it). */
export function useSandbox(sessionID: string): { sandbox?: Sandbox; error?: string } {
  const { sandbox } = useServices();
  const [state, setState] = useState<{ sandbox?: Sandbox; error?: string }>({});
  useEffect(() => {
    let live = true;
    setState({});
    sandbox.sandboxFor(sessionID).then(
      (sb) => live && setState({ sandbox: sb }),
      (e: unknown) => live && setState({ error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, [sandbox, sessionID]);
  return state;
}
