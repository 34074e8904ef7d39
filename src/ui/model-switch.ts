import type { SessionStatus } from "../core/bus";
import type { MessageWithParts } from "../core/schema";

/**
 * The model the running step was sent to, when the session's model was switched after it started: the switch
 * applies from the next step (the loop reads `session.model` per step), so the header must not claim the new model
 * for the answer streaming now. Undefined when nothing runs, or the running step is on the chosen model already.
 * The running step is the newest answer, if it has not ended: prompts sent during it come after it and are passed
 * over, as are summaries (written on the summary model); while a step waits for the person's command, its request
 * is already out.
 */
export function stepModelBeforeSwitch(messages: readonly MessageWithParts[], status: SessionStatus, chosen: { providerID: string; modelID: string }): string | undefined {
  if (status.type === "idle") return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const info = messages[i]?.info;
    if (!info || info.role === "user" || info.summary) continue;
    if (info.time.completed !== undefined) return undefined;
    const same = info.modelID === chosen.modelID && info.providerID === chosen.providerID;
    return same ? undefined : info.providerID === chosen.providerID ? info.modelID : `${info.providerID}/${info.modelID}`;
  }
  return undefined;
}
