import { createContext, useContext } from "react";
import type { MessageWithParts } from "../../core/schema";

/**
 * A conversation on screen that is not in this browser's store and has no
 * workspace: a share link opened (and its replay). What reads the store or the
 * sandbox for a message reads these messages instead, and shows only what they carry.
 */
export const DetachedContext = createContext<MessageWithParts[] | null>(null);

export function useDetached(): MessageWithParts[] | null {
  return useContext(DetachedContext);
}
