import { defineConfig } from "vitest/config";

/** `npm run bench:import`: the history-import benchmark prints its table from a Vitest run. */
export default defineConfig({
  test: {
    include: ["bench/import/**/*.run.ts"],
    environment: "node",
    testTimeout: 1_800_000,
    disableConsoleIntercept: true,
    reporters: ["dot"],
  },
});
