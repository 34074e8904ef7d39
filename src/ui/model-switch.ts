import type { SessionStatus } from "../core/bus";
import type { MessageWithParts } from "../core/schema";

/**
 * The model the running step was sent to, when the session's model was switched after it
 * started: the switch applies from the next step (the loop reads `session.model` per step),
 * so the header must not claim the new model for the answer streaming now.
 * Undefined when nothing runs, or the running step is on the chosen model already.
 */
export function stepModelBeforeSwitch(messages: readonly MessageWithParts[], status: SessionStatus, chosen: string): string | undefined {
  if (status.type !== "busy" && status.type !== "retry") return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const info = messages[i]?.info;
    if (!info) continue;
    if (info.role === "user") return undefined;
    if (info.summary) continue;
    if (info.time.completed !== undefined) return undefined;
    return info.modelID !== chosen ? info.modelID : undefined;
  }
  return undefined;
}
