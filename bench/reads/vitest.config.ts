import { defineConfig } from "vitest/config";

/** `npm run bench:reads`: store reads per loop step on a long session; prints a table from a Vitest run. */
export default defineConfig({
  test: {
    include: ["bench/reads/**/*.run.ts"],
    environment: "node",
    testTimeout: 300_000,
    disableConsoleIntercept: true,
    reporters: ["dot"],
  },
});
