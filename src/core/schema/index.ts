export * from "./common";
export * from "./message";
export * from "./part";
export * from "./session";

import type { Message } from "./message";
import type { Part } from "./part";

/** A message with its ordered parts, as the loop and the UI consume it. */
export interface MessageWithParts {
  info: Message;
  parts: Part[];
}
