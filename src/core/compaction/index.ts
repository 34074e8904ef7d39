/** Context management: overflow, prune, summary compaction, cache markers and the context X-ray (import the modules for the rest). */
export { processCompaction } from "./process";
export { applyPrune } from "./prune";
export { createCompactionRequest, pendingCompaction } from "./summarize";
