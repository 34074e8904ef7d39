import { defineConfig } from "vitest/config";

/** `npm run bench:context`: the context-policy benchmark prints its tables from a Vitest run. */
export default defineConfig({
  test: {
    include: ["bench/context/**/*.run.ts"],
    environment: "node",
    testTimeout: 300_000,
    disableConsoleIntercept: true,
    reporters: ["dot"],
  },
});
