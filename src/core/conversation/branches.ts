import type { MessageWithParts, UserMessage } from "../schema";

/** The branch point before the first turn. */
export const ROOT = "root";

type UserWithParts = MessageWithParts & { info: UserMessage };

export interface BranchTree {
  /** Branch point (`prev` key) → the user messages that follow it, oldest first. */
  children: Map<string, UserWithParts[]>;
  /** User message id → its answer messages (assistant steps), in order. */
  answers: Map<string, MessageWithParts[]>;
  /** User message id → its branch point. */
  prevOf: Map<string, string>;
}

/**
 * Builds the tree of turns. A user message follows the turn named by its
 * `prev`; without one (linear history, system-made messages), it follows the
 * turn of the message just before it in id order.
 */
export function branchTree(all: MessageWithParts[]): BranchTree {
  const children = new Map<string, UserWithParts[]>();
  const answers = new Map<string, MessageWithParts[]>();
  const prevOf = new Map<string, string>();
  const turnOf = new Map<string, string>();
  let lastTurn = ROOT;
  for (const m of all) {
    const info = m.info;
    if (info.role === "user") {
      const known = info.prev !== undefined && (info.prev === ROOT || turnOf.has(info.prev));
      const key = known && info.prev !== undefined ? info.prev : lastTurn;
      prevOf.set(info.id, key);
      const list = children.get(key) ?? [];
      list.push(m as UserWithParts);
      children.set(key, list);
      turnOf.set(info.id, info.id);
      lastTurn = info.id;
    } else {
      const turn = info.parentID;
      turnOf.set(info.id, turn);
      const list = answers.get(turn) ?? [];
      list.push(m);
      answers.set(turn, list);
      lastTurn = turn;
    }
  }
  return { children, answers, prevOf };
}

/**
 * The conversation as shown and sent: from the first turn, at each branch
 * point the selected alternative (default: the newest), with its answers.
 */
export function activePath(all: MessageWithParts[], selected: Record<string, string> | undefined): MessageWithParts[] {
  if (!all.some((m) => m.info.role === "user" && m.info.prev !== undefined)) return all; // linear: nothing to choose
  const tree = branchTree(all);
  const out: MessageWithParts[] = [];
  let key = ROOT;
  for (let guard = 0; guard <= all.length; guard++) {
    const kids = tree.children.get(key);
    if (!kids?.length) break;
    const chosen = kids.find((k) => k.info.id === selected?.[key]) ?? kids[kids.length - 1];
    if (!chosen) break;
    out.push(chosen, ...(tree.answers.get(chosen.info.id) ?? []));
    key = chosen.info.id;
  }
  return out;
}

/** The alternatives at a user message's branch point, oldest first, and where it stands among them. */
export function siblings(all: MessageWithParts[], userID: string): { key: string; ids: string[]; index: number } {
  return siblingsIn(branchTree(all), userID);
}

/** `siblings` on a tree already built (a view asking for every message it shows builds the tree once). */
export function siblingsIn(tree: BranchTree, userID: string): { key: string; ids: string[]; index: number } {
  const key = tree.prevOf.get(userID) ?? ROOT;
  const ids = (tree.children.get(key) ?? []).map((m) => m.info.id);
  return { key, ids, index: ids.indexOf(userID) };
}

/** The branch point a new prompt continues: the last turn of the active path. */
export function nextPrev(path: MessageWithParts[]): string {
  for (let i = path.length - 1; i >= 0; i--) {
    const info = path[i]?.info;
    if (info?.role === "user") return info.id;
    if (info?.role === "assistant") return info.parentID;
  }
  return ROOT;
}
