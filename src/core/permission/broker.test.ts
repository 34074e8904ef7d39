import { describe, expect, it } from "vitest";
import type { Ruleset } from "../schema";
import { PermissionRefused } from "./ask";
import { bashPatterns } from "./arity";
import { PermissionBroker } from "./broker";

const RULES: Ruleset = [
  { permission: "*", pattern: "*", action: "allow" },
  { permission: "bash", pattern: "*", action: "ask" },
  { permission: "bash", pattern: "rm *", action: "deny" },
];

function broker(rules: Ruleset = RULES) {
  return new PermissionBroker(() => [rules]);
}
const flush = () => new Promise((r) => setTimeout(r, 0));

async function outcome(p: Promise<void>): Promise<string> {
  try {
    await p;
    return "allowed";
  } catch (e) {
    return e instanceof PermissionRefused ? `refused:${e.stopsTurn ? "stop" : "continue"}` : "error";
  }
}

describe("PermissionBroker", () => {
  it("allows, denies and parks questions by the rules", async () => {
    const b = broker();
    expect(await outcome(b.ask("s1", { permission: "read", patterns: ["/a"], always: ["*"], title: "read" }))).toBe("allowed");
    expect(await outcome(b.ask("s1", { permission: "bash", patterns: ["rm -rf /"], always: ["rm *"], title: "bash" }))).toBe("refused:continue");
    const pending = b.ask("s1", { permission: "bash", patterns: ["git push"], always: ["git push *"], title: "bash" });
    await flush();
    expect(b.pending().map((p) => p.patterns)).toEqual([["git push"]]);
    b.reply(b.pending()[0]?.id ?? "", { type: "once" });
    expect(await outcome(pending)).toBe("allowed");
    expect(b.decisions("s1").map((d) => d.action)).toEqual(["allow", "deny", "once"]);
  });

  it("never lets an 'always' approval outrank a configured deny", async () => {
    const b = broker();
    const first = b.ask("s1", { permission: "bash", patterns: ["ls"], always: ["*"], title: "bash" });
    await flush();
    b.reply(b.pending()[0]?.id ?? "", { type: "always" });
    await first;
    expect(await outcome(b.ask("s1", { permission: "bash", patterns: ["git push"], always: [], title: "bash" }))).toBe("allowed");
    expect(await outcome(b.ask("s1", { permission: "bash", ...bashPatterns("echo ok && rm -rf /"), title: "bash" }))).toBe("refused:continue");
  });

  it("keeps approvals per session", async () => {
    const b = broker();
    const first = b.ask("s1", { permission: "bash", patterns: ["npm test"], always: ["npm test *"], title: "bash" });
    await flush();
    b.reply(b.pending()[0]?.id ?? "", { type: "always" });
    await first;
    expect(await outcome(b.ask("s1", { permission: "bash", patterns: ["npm test --watch"], always: [], title: "bash" }))).toBe("allowed");
    void b.ask("s2", { permission: "bash", patterns: ["npm test"], always: [], title: "bash" }).catch(() => undefined);
    await flush();
    expect(b.pending().map((p) => p.sessionID)).toEqual(["s2"]);
    b.cancelSession("s2");
  });

  it("releases other pending questions an 'always' answer now covers", async () => {
    const b = broker();
    const one = b.ask("s1", { permission: "bash", patterns: ["npm run build"], always: ["npm run build *"], title: "bash" });
    const two = b.ask("s1", { permission: "bash", patterns: ["npm run build --prod"], always: ["npm run build *"], title: "bash" });
    const other = b.ask("s1", { permission: "bash", patterns: ["git push"], always: ["git push *"], title: "bash" });
    await flush();
    b.reply(b.pending()[0]?.id ?? "", { type: "always" });
    expect(await outcome(one)).toBe("allowed");
    expect(await outcome(two)).toBe("allowed");
    expect(b.pending().map((p) => p.patterns[0])).toEqual(["git push"]);
    b.reply(b.pending()[0]?.id ?? "", { type: "once" });
    expect(await outcome(other)).toBe("allowed");
  });

  it("rejects the session's other pending questions on reject, with or without feedback", async () => {
    const b = broker();
    const one = b.ask("s1", { permission: "bash", patterns: ["a"], always: [], title: "bash" });
    const two = b.ask("s1", { permission: "bash", patterns: ["b"], always: [], title: "bash" });
    const elsewhere = b.ask("s2", { permission: "bash", patterns: ["c"], always: [], title: "bash" });
    await flush();
    b.reply(b.pending()[0]?.id ?? "", { type: "reject" });
    expect(await outcome(one)).toBe("refused:stop");
    expect(await outcome(two)).toBe("refused:stop");
    expect(b.pending().map((p) => p.sessionID)).toEqual(["s2"]);
    b.reply(b.pending()[0]?.id ?? "", { type: "reject", feedback: "use c2" });
    expect(await outcome(elsewhere)).toBe("refused:continue");
  });

  it("asks when mustAsk is set even though rules allow", async () => {
    const b = broker([{ permission: "*", pattern: "*", action: "allow" }]);
    const p = b.ask("s1", { permission: "bash", ...bashPatterns("echo 'unbalanced"), title: "bash" });
    await flush();
    expect(b.pending()[0]).toMatchObject({ mustAsk: expect.stringMatching(/quote/), always: [] });
    b.reply(b.pending()[0]?.id ?? "", { type: "once" });
    expect(await outcome(p)).toBe("allowed");
  });
});
