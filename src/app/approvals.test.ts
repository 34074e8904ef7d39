import { describe, expect, it } from "vitest";
import { PermissionBroker } from "../core/permission/broker";
import { DEFAULT_RULES } from "../core/permission/evaluate";
import type { Ruleset } from "../core/schema";
import { MemoryStore } from "../testing/memory-store";
import { makeTestService } from "../testing/session-service";
import { FakeLLM } from "../testing/fake-llm";
import { sessionApprovals } from "./approvals";

const ASK_BASH: Ruleset = [...DEFAULT_RULES, { permission: "bash", pattern: "*", action: "ask" }];
const flush = () => new Promise((r) => setTimeout(r, 0));

describe("session approvals", () => {
  it("are stored on the session and read back by a fresh broker (a reload)", async () => {
    const { store, service } = makeTestService({ llm: new FakeLLM([]), tools: [] });
    const s = await service.createSession();
    const before = new PermissionBroker(() => [ASK_BASH], sessionApprovals(store));
    const asked = before.ask(s.id, { permission: "bash", patterns: ["npm run dev"], always: ["npm run dev *"], title: "bash" });
    await flush();
    before.reply(before.pending()[0]?.id ?? "", { type: "always" });
    await asked;
    await flush();
    expect((await store.getSession(s.id))?.approved).toEqual([{ permission: "bash", pattern: "npm run dev *", action: "allow" }]);

    const after = new PermissionBroker(() => [ASK_BASH], sessionApprovals(store));
    await after.ask(s.id, { permission: "bash", patterns: ["npm run dev --port 3"], always: ["npm run dev *"], title: "bash" });
    expect(after.pending()).toEqual([]);
  });

  it("of a missing session are empty", async () => {
    expect(await sessionApprovals(new MemoryStore()).load("ses_missing")).toEqual([]);
  });
});
