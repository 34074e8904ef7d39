import type { MessageWithParts } from "../schema";

/** The prompt the Continue action sends after an answer cut at the output limit. */
export const CONTINUE_ANSWER_PROMPT = "Continue exactly where your previous answer was cut off.";

export type FinishNotice = { kind: "length"; text: string } | { kind: "filter"; text: string };

/**
 * How an answer ended, when the user must be told: cut at the output limit
 * (`length`) or stopped by the provider's content filter or a refusal (with
 * the provider's own word for it). Undefined for a normal end.
 */
export function finishNotice(m: MessageWithParts): FinishNotice | undefined {
  if (m.info.role !== "assistant" || m.info.error) return undefined;
  if (m.info.finish === "length") return { kind: "length", text: "The answer was cut at the output limit." };
  if (m.info.finish === "content-filter") {
    const raw = m.parts.findLast((p) => p.type === "step-finish");
    const why = raw?.type === "step-finish" && raw.rawReason ? raw.rawReason.replace(/_/g, " ") : "content filter";
    return { kind: "filter", text: `The provider stopped this answer (${why}).` };
  }
  return undefined;
}
