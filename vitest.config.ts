import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    environment: "node",
    testTimeout: 20_000,
    // Vitest's default is one worker fewer than the cores: on a 2-core machine (CI's) one worker, the other core idle.
    maxWorkers: 2,
  },
});
