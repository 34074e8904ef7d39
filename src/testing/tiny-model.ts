/**
 * Test support for loop tests that compact (imported by tests only): a tool with outputs of a chosen size
 * and a model with a 4,000-token window, so a few steps reach the compaction point.
 */
import { z } from "../core/zod";
import { defineTool } from "../core/tools/tool";

/** `big` returns `n` words (an output of a chosen size). */
export const bigOutputTool = defineTool({
  id: "big",
  description: "Returns n words.",
  parameters: z.object({ n: z.number() }),
  execute: async ({ n }) => ({ title: `${n} words`, output: Array.from({ length: n }, (_, i) => `word${i}`).join(" ") }),
});

/** A model entry with a 4,000-token window and a 500-token output, free of charge. */
export const TINY_MODEL = { contextWindow: 4000, maxOutputTokens: 500, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
