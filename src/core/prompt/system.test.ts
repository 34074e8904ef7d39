import { describe, expect, it } from "vitest";
import { environmentBlock, LOCAL_SANDBOX_PROGRAMS } from "./system";

const base = { model: { provider: "openai" as const, modelID: "gpt-test" }, directory: "/workspace", date: "Tue Dec 01 2026" };

describe("environment block", () => {
  it("lists the local sandbox's programs (python3, git; no node)", () => {
    const env = environmentBlock({ ...base, sandbox: "local (in-browser)" });
    expect(env).toContain(`  Programs: ${LOCAL_SANDBOX_PROGRAMS}`);
    expect(LOCAL_SANDBOX_PROGRAMS).toMatch(/python3.*git.*no node, npm/);
  });

  it("says nothing about programs for WebContainer", () => {
    const env = environmentBlock({ ...base, sandbox: "webcontainer (in-browser)" });
    expect(env).not.toContain("Programs:");
  });
});
