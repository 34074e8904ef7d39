import { useCallback, useSyncExternalStore } from "react";

/** Routes live in the hash: `#/s/<sessionID>`; back/forward work through the browser history. */
export type Route =
  | { name: "home" }
  | { name: "session"; sessionID: string; messageID?: string; replay?: boolean }
  | { name: "share"; data: string; replay?: boolean };

export function parseRoute(hash: string): Route {
  if (hash.startsWith("#/share/")) {
    // The link's data never holds a "/": a replay of it is the same link with "/replay".
    const rest = hash.slice("#/share/".length);
    return rest.endsWith("/replay") ? { name: "share", data: rest.slice(0, -"/replay".length), replay: true } : { name: "share", data: rest };
  }
  const m = /^#\/s\/([A-Za-z0-9_]+)(?:\/m\/([A-Za-z0-9_]+))?(\/replay)?/.exec(hash);
  if (!m?.[1]) return { name: "home" };
  const route: Route = { name: "session", sessionID: m[1] };
  if (m[2]) route.messageID = m[2];
  if (m[3]) route.replay = true;
  return route;
}

function subscribe(l: () => void): () => void {
  window.addEventListener("hashchange", l);
  return () => window.removeEventListener("hashchange", l);
}

export function useRoute(): [Route, (r: Route, replace?: boolean) => void] {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  const navigate = useCallback((r: Route, replace = false) => {
    const target =
      r.name === "session" ? `#/s/${r.sessionID}${r.messageID ? `/m/${r.messageID}` : ""}${r.replay ? "/replay" : ""}` : r.name === "share" ? `#/share/${r.data}${r.replay ? "/replay" : ""}` : "#/";
    if (window.location.hash === target) return;
    if (replace) {
      history.replaceState(null, "", target);
      window.dispatchEvent(new HashChangeEvent("hashchange"));
    } else window.location.hash = target;
  }, []);
  return [parseRoute(hash), navigate];
}
