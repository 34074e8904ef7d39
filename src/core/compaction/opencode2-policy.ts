import type { MessageWithParts } from "../schema";
import { OPENCODE2_KEEP_TOKENS, opencode2Limit } from "./opencode-rules";
import { inputBudget } from "./overflow";
import { type ContextPolicy, type PolicyDecision, SUMMARY_PROMPT_TOKENS } from "./policy";
import { previousSummary } from "./summarize";
import { selectTail } from "./tail";

/**
 * OpenCode 2.x: no prune (`compaction.prune` is accepted and does nothing);
 * a summary when the next full request would exceed `opencode2Limit`,
 * keeping the newest `keep` tokens of whole turns verbatim; the summary
 * request is the full conversation plus the instruction (so the provider's
 * cache serves it; a transcript when that would not fit), and a later
 * summary updates the previous one.
 */
export function opencode2Policy(keep: number = OPENCODE2_KEEP_TOKENS): ContextPolicy {
  return {
    name: keep === OPENCODE2_KEEP_TOKENS ? "opencode-2" : `opencode-2 (keep ${keep})`,
    decide(input): PolicyDecision {
      const { model, settings, view, request } = input;
      if (input.moment === "idle" || settings.compaction.auto === false || model.contextWindow === 0) return { kind: "send" };
      if (input.moment !== "overflow" && request <= opencode2Limit(model)) return { kind: "send" };
      if (!hasNewContent(view)) return { kind: "send" };
      const previous = previousSummary(view);
      const skip = new Set([previous?.message.info.id, previous?.message.info.parentID]);
      const body = view.filter((m) => !skip.has(m.info.id));
      const start = selectTail(body, { budget: keep, encoding: input.encoding, after: previous?.message.info.parentID });
      const tailStartID = start === undefined ? undefined : body[start]?.info.id;
      // It checks that the summary request (the conversation plus the instruction) fits first.
      const mode = request + SUMMARY_PROMPT_TOKENS <= inputBudget(model) ? "cached-prefix" : "transcript";
      return tailStartID ? { kind: "summarize", mode, tailStartID } : { kind: "summarize", mode };
    },
  };
}

/** Something was said since the newest summary (a summary of only a summary would repeat itself). */
export function hasNewContent(view: MessageWithParts[]): boolean {
  for (let i = view.length - 1; i >= 0; i--) {
    const info = view[i]?.info;
    if (info?.role === "assistant" && info.summary) return false;
    if (info?.role === "assistant" && info.finish && !info.error) return true;
  }
  return false;
}
