import { exportOne, fork, revert, unrevert } from "../../app/session-actions";
import { conversationView } from "../../core/conversation/view";
import { parseGoal } from "../../core/session/goal-syntax";
import { emit } from "../app-events";
import { download } from "../components/workspace/workspace-io";
import { useServices } from "../hooks/services";
import type { SlashName } from "./slash";

export type Agent = "build" | "plan";

/** Runs a parsed slash command for a session; failures go to `onError` in plain words. */
export function useSlashRunner(sessionID: string, switchAgent: (to?: Agent) => void, onError: (m: string) => void, onOpenSession: (id: string) => void) {
  const app = useServices();
  const lastUserMessage = async () => {
    const { messagesToRead } = await import("../../core/session/read-messages");
    const [all, session] = await Promise.all([messagesToRead(app.store, sessionID), app.store.getSession(sessionID)]);
    const { shown } = conversationView(session, all);
    return shown.findLast((m) => m.info.role === "user")?.info.id;
  };
  const jobs: Record<SlashName, (arg: string) => Promise<void> | void> = {
    goal: async (arg) => {
      if (arg.toLowerCase() === "stop") {
        const s = await app.store.getSession(sessionID);
        if (s?.goal?.state !== "active") throw new Error("There is no goal to stop.");
        return app.sessions.goals.stop(sessionID);
      }
      const r = parseGoal(arg);
      if (!r.ok) throw new Error(r.error);
      await app.sessions.setGoal(sessionID, r.spec);
    },
    compact: () => app.sessions.compact(sessionID),
    pin: async (arg) => {
      const r = await app.sessions.addPin(sessionID, { kind: "constraint", text: arg });
      if (!r.ok) throw new Error(r.error);
    },
    fork: async () => {
      const last = await lastUserMessage();
      if (!last) throw new Error("There is nothing to fork yet.");
      const s = await fork(app, sessionID, last);
      onOpenSession(s.id);
    },
    undo: async () => {
      const last = await lastUserMessage();
      if (!last) throw new Error("There is no turn to undo.");
      await revert(app, sessionID, last);
    },
    redo: async () => {
      const s = await app.store.getSession(sessionID);
      if (!s?.revert) throw new Error("There is nothing to redo.");
      await unrevert(app, sessionID);
    },
    export: async () => {
      const d = await exportOne(app, sessionID, "json");
      download(d.name, d.data, d.mime);
    },
    model: () => emit("pick-model"),
    agent: (arg) => switchAgent(arg === "build" || arg === "plan" ? arg : undefined),
    new: () => emit("new-session"),
    help: () => emit("help"),
  };
  return async (name: SlashName, arg: string) => {
    try {
      await jobs[name](arg);
    } catch (e) {
      onError(`/${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}
