import { describe, expect, it } from "vitest";
import type { ModelConfig } from "../ports/llm";
import { environmentBlock, LOCAL_SANDBOX_PROGRAMS } from "./system";

const model: ModelConfig = { provider: "openai", modelID: "gpt-test", contextWindow: 1000, maxOutputTokens: 100, prices: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
const base = { model, directory: "/workspace", date: "Tue Dec 01 2026" };

describe("environment block", () => {
  it("lists the local sandbox's programs (python3, git, sqlite3, node for plain scripts; no npm)", () => {
    const env = environmentBlock({ ...base, sandbox: "local (in-browser)" });
    expect(env).toContain(`  Programs: ${LOCAL_SANDBOX_PROGRAMS}`);
    expect(LOCAL_SANDBOX_PROGRAMS).toMatch(/python3.*git.*sqlite3.*node for plain scripts.*no npm\/npx, network/);
  });

  it("says nothing about programs for WebContainer", () => {
    const env = environmentBlock({ ...base, sandbox: "webcontainer (in-browser)" });
    expect(env).not.toContain("Programs:");
  });
});
