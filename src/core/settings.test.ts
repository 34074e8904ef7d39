import { describe, expect, it } from "vitest";
import { defaultSettings, parseSettings, parseSettingsReport } from "./settings";

const stored = {
  provider: "openai",
  baseURL: "https://api.openai.com/v1",
  apiKey: "sk-test-key",
  modelID: "gpt-5",
  summaryModelID: "gpt-5-mini",
  models: { "my-model": { contextWindow: 32_000, maxOutputTokens: 4_000, prices: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } } },
  maxSteps: 80,
  sandbox: "local",
  globalRules: "Be brief.",
  skills: [{ name: "review", description: "Reviews code", body: "Look closely." }],
  permissions: [{ permission: "read", pattern: "*.env", action: "deny" }],
  compaction: { auto: false, prune: true, threshold: 0.8, provider: true },
};

describe("parseSettings", () => {
  it("keeps valid settings as they are", () => {
    expect(parseSettingsReport(stored)).toEqual({ settings: stored, reset: [] });
  });

  it("resets only the invalid field, keeping the API key and deny rules", () => {
    const r = parseSettingsReport({ ...stored, maxSteps: 0 });
    expect(r.settings).toEqual({ ...stored, maxSteps: defaultSettings().maxSteps });
    expect(r.reset).toEqual(["Max steps"]);
    expect(parseSettings({ ...stored, sandbox: "docker" }).apiKey).toBe("sk-test-key");
  });

  it("drops only the bad entries of lists and maps, and resets only the bad part of a group", () => {
    const r = parseSettingsReport({
      ...stored,
      models: { ...stored.models, broken: { contextWindow: -1 } },
      skills: [...stored.skills, { name: 3 }],
      permissions: [{ permission: "bash", pattern: "rm *", action: "maybe" }, ...stored.permissions],
      compaction: { auto: false, prune: "yes", threshold: 0.8, provider: "on" },
    });
    expect(r.settings.models).toEqual(stored.models);
    expect(r.settings.skills).toEqual(stored.skills);
    expect(r.settings.permissions).toEqual(stored.permissions);
    expect(r.settings.compaction).toEqual({ auto: false, prune: true, threshold: 0.8 });
    expect(r.reset).toEqual(['Model limits for "broken"', "Skill 2", "Permission rule 1", "Compaction: prune old tool outputs", "Compaction: by the provider"]);
  });

  it("fills missing fields with defaults without reporting them, and survives junk", () => {
    const { apiKey, ...older } = stored;
    expect(apiKey).toBe("sk-test-key");
    expect(parseSettingsReport(older)).toEqual({ settings: { ...stored, apiKey: "" }, reset: [] });
    expect(parseSettingsReport(null)).toEqual({ settings: defaultSettings(), reset: [] });
    expect(parseSettingsReport("garbage")).toEqual({ settings: defaultSettings(), reset: ["All settings (not an object)"] });
  });
});
