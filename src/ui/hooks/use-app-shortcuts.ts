import { emit } from "../app-events";
import type { Layout } from "./layout";
import { useServices } from "./services";
import { useShortcuts } from "./use-shortcuts";

const focusLater = (selector: string) =>
  requestAnimationFrame(() => {
    document.querySelector<HTMLElement>(selector)?.focus();
  });

/** What each app-wide shortcut does. */
export function useAppShortcuts(layout: Layout, current: string | undefined, openSession: (id: string) => void, newSession: () => void, openHelp: () => void): void {
  const { store } = useServices();
  const toggle = (p: Layout["sessions"]) => (layout.narrow ? p.setOpen(!p.open) : p.setCollapsed(!p.collapsed));
  const showSessions = () => (layout.narrow ? layout.sessions.setOpen(true) : layout.sessions.setCollapsed(false));
  const step = async (by: number) => {
    const list = await store.listSessions({ archived: false });
    if (list.length === 0) return;
    const i = list.findIndex((s) => s.id === current);
    const next = list[i < 0 ? 0 : Math.min(list.length - 1, Math.max(0, i + by))];
    if (next) openSession(next.id);
  };
  useShortcuts((a) => {
    switch (a) {
      case "new-session":
        return newSession();
      case "search":
        showSessions();
        return focusLater('input[aria-label="Search sessions"]');
      case "focus-composer":
        return focusLater("#composer-input");
      case "prev-session":
        return void step(-1);
      case "next-session":
        return void step(1);
      case "toggle-sessions":
        return toggle(layout.sessions);
      case "toggle-files":
        return toggle(layout.files);
      case "switch-agent":
        return emit("switch-agent", {});
      case "help":
        return openHelp();
    }
  });
}
