import { createContext, type ReactNode, useContext, useSyncExternalStore } from "react";
import type { AppServices } from "../../app/bootstrap";
import type { SessionStatus } from "../../core/bus";
import type { Settings } from "../../core/settings";

const ServicesContext = createContext<AppServices | null>(null);

export function ServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): AppServices {
  const s = useContext(ServicesContext);
  if (!s) throw new Error("useServices outside ServicesProvider");
  return s;
}

export function useSettings(): Settings {
  const { settings } = useServices();
  return useSyncExternalStore(settings.subscribe, settings.get);
}

export function useSessionStatus(sessionID: string | undefined): SessionStatus {
  const { sessions } = useServices();
  const all = useSyncExternalStore(sessions.subscribe, sessions.getStatuses);
  return (sessionID && all.get(sessionID)) || IDLE;
}

/** One object for every idle session, so a memoised view taking a status is not rendered again for an equal one. */
const IDLE: SessionStatus = { type: "idle" };

export function useAllStatuses(): ReadonlyMap<string, SessionStatus> {
  const { sessions } = useServices();
  return useSyncExternalStore(sessions.subscribe, sessions.getStatuses);
}
