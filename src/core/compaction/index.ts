/** Context management: overflow, prune, summary compaction, cache markers and the context X-ray. */
export { applyCacheMarkers, CACHE_TAIL_MESSAGES } from "./cache-markers";
export {
  COMPACTION_BUFFER,
  type CompactionSettings,
  inputBudget,
  isOverflow,
  lastStepTokens,
  maxOutput,
  type ModelLimits,
  OUTPUT_TOKEN_MAX,
  overflowAt,
  reserved,
  usable,
  wouldOverflow,
} from "./overflow";
export { type CompactionDeps, type CompactionResult, COMPACTION_TOO_LARGE, CONTINUE_PROMPT, type ProcessCompactionInput, processCompaction } from "./process";
export { applyPrune, PRUNE_MINIMUM, PRUNE_PROTECT, PRUNE_PROTECTED_TOOLS, type PrunePlan, planPrune, pruneSession } from "./prune";
export { COMPACTION_AGENT, createCompactionRequest, pendingCompaction } from "./summarize";
export { selectTail, tailBudget } from "./tail";
export { contextXray, type Xray, type XrayInput, type XraySection, type XrayStatus } from "./xray";
