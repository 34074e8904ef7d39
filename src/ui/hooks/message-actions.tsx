import { createContext, useContext } from "react";

/** What a message's own buttons can do; provided by the session view. */
export interface MessageActions {
  busy: boolean;
  fork(messageID: string): void;
  revert(messageID: string): void;
}

export const MessageActionsContext = createContext<MessageActions | null>(null);

export function useMessageActions(): MessageActions | null {
  return useContext(MessageActionsContext);
}
