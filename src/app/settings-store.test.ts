import { describe, expect, it } from "vitest";
import { SettingsStore } from "./settings-store";

describe("SettingsStore.load", () => {
  it("keeps the valid fields of stored settings and names the ones it reset", async () => {
    const stored = { provider: "openai", apiKey: "sk-kept", modelID: "gpt-5", maxSteps: "many" };
    const store = await SettingsStore.load({ load: async () => stored, save: async () => {} });
    expect(store.get()).toMatchObject({ provider: "openai", apiKey: "sk-kept", modelID: "gpt-5", maxSteps: 50 });
    expect(store.resetOnLoad).toEqual(["Max steps"]);
  });

  it("reports nothing when the stored settings are valid or absent", async () => {
    const store = await SettingsStore.load({ load: async () => undefined, save: async () => {} });
    expect(store.resetOnLoad).toEqual([]);
  });
});
