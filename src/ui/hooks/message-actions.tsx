import { createContext, useContext, useSyncExternalStore } from "react";

/** What a message's own buttons can do; provided by the session view. */
export interface MessageActions {
  busy: boolean;
  /** The newest message shown (Continue acts on it only). */
  newest: { get(): string | undefined; set(id: string | undefined): void; subscribe(listener: () => void): () => void };
  fork(messageID: string): void;
  revert(messageID: string): void;
  /** Edit-and-resend a user message as a new branch. */
  edit(messageID: string, text: string): void;
  /** Where a user message stands among its alternatives (undefined when it has none). */
  branch(messageID: string): { index: number; count: number } | undefined;
  /** Shows the previous (-1) or next (+1) alternative of a user message. */
  switchBranch(messageID: string, step: -1 | 1): void;
  /** Asks the answered question again, as a new branch (the old answer stays one click away). */
  regenerate(assistantMessageID: string): void;
  /** Asks the model to go on where an answer was cut (at the output limit, by Stop, by a broken stream). */
  continueAnswer(): void;
  /** How many of the person's messages come after `messageID` (a revert from it takes them too). */
  turnsAfter(messageID: string): number;
  /** Where an imported session came from (its compactions before `updated` are that tool's, not tabcode's). */
  importedFrom?: { tool: string; updated: number };
  /** How many messages a compaction request folded into its summary. */
  compacted(messageID: string): number | undefined;
  /** Replaces the text of a compaction summary (what the model sees from now on). */
  editSummary(messageID: string, text: string): void;
  /** Pins a message's text as a constraint. */
  pinMessage(messageID: string, text: string): void;
  /** Summarises the conversation up to this message's turn (after a preview). */
  summariseUpTo(messageID: string): void;
  /** A child session seeded with a brief of the conversation up to this message. */
  startFresh(messageID: string): void;
}

export const MessageActionsContext = createContext<MessageActions | null>(null);

export function useMessageActions(): MessageActions | null {
  return useContext(MessageActionsContext);
}

/** Whether `messageID` is the newest message shown (for the few rows that ask: a cut answer's Continue). */
export function useIsNewest(messageID: string): boolean {
  const actions = useMessageActions();
  const newest = useSyncExternalStore(
    (l) => actions?.newest.subscribe(l) ?? (() => undefined),
    () => actions?.newest.get(),
  );
  return newest === messageID;
}
