import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, it } from "vitest";
import { createDatabase } from "./db";
import { deleteSetting, getSetting, getSettings, putSetting } from "./settings";

describe("settings", () => {
  it("stores, reads, overwrites and deletes key/value rows", async () => {
    const db = createDatabase({ indexedDB: new IDBFactory(), IDBKeyRange });
    expect(await getSetting(db, "apiKey")).toBeUndefined();
    await putSetting(db, "apiKey", "sk-1");
    await putSetting(db, "model", { providerID: "openai", modelID: "gpt-test" });
    await putSetting(db, "apiKey", "sk-2");
    expect(await getSetting(db, "apiKey")).toBe("sk-2");
    expect(await getSettings(db)).toEqual({ apiKey: "sk-2", model: { providerID: "openai", modelID: "gpt-test" } });
    await deleteSetting(db, "apiKey");
    expect(await getSettings(db)).toEqual({ model: { providerID: "openai", modelID: "gpt-test" } });
  });
});
