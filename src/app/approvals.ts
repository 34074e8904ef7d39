/**
 * "Always" approvals kept on the session record, so they survive a reload
 * (the broker loads them on the session's first question).
 */
import type { ApprovalStorage } from "../core/permission/broker";
import type { Store } from "../core/ports/store";

export function sessionApprovals(store: Store): ApprovalStorage {
  return {
    async load(sessionID) {
      return (await store.getSession(sessionID))?.approved ?? [];
    },
    async save(sessionID, approved) {
      await store.updateSession(sessionID, (s) => ({ ...s, approved }));
    },
  };
}
