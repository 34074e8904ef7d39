import { describe, expect, it } from "vitest";
import { parseSlash, SLASH_COMMANDS, slashMatches } from "./slash";

describe("slash commands", () => {
  it("the palette filters by prefix while a single /word is typed", () => {
    expect(slashMatches("/").map((c) => c.name)).toEqual(SLASH_COMMANDS.map((c) => c.name));
    expect(slashMatches("/co").map((c) => c.name)).toEqual(["compact"]);
    expect(slashMatches("/go").map((c) => c.name)).toEqual(["goal"]);
    expect(slashMatches("/zz")).toEqual([]);
    expect(slashMatches("/agent plan")).toEqual([]);
    expect(slashMatches("hello /co")).toEqual([]);
  });

  it("parses commands with arguments; other text is a normal prompt", () => {
    expect(parseSlash("/compact")).toEqual({ ok: true, name: "compact", arg: "" });
    expect(parseSlash("  /Agent plan ")).toEqual({ ok: true, name: "agent", arg: "plan" });
    expect(parseSlash("fix /etc/hosts")).toBeUndefined();
    expect(parseSlash("/etc/hosts is broken")).toBeUndefined();
    expect(parseSlash("/tmp is full")).toBeUndefined();
    expect(parseSlash("/compcat")).toEqual({ ok: false, error: "There is no /compcat command. Type / to see the commands." });
    expect(parseSlash("/pin never touch config/")).toEqual({ ok: true, name: "pin", arg: "never touch config/" });
    expect(parseSlash("/pin")).toEqual({ ok: false, error: "/pin needs the constraint to pin, e.g. “/pin never touch config/”." });
    expect(parseSlash("/agent deploy")).toEqual({ ok: false, error: "/agent takes build or plan, not “deploy”." });
  });

  it("/goal checks its objective and budget before anything is sent", () => {
    expect(parseSlash("/goal fix the build until npm test passes budget $1")).toEqual({ ok: true, name: "goal", arg: "fix the build until npm test passes budget $1" });
    expect(parseSlash("/goal stop")).toEqual({ ok: true, name: "goal", arg: "stop" });
    expect(parseSlash("/goal")).toMatchObject({ ok: false, error: expect.stringContaining("/goal needs an objective: /goal <objective>") });
    expect(parseSlash("/goal ship it budget forever")).toMatchObject({ ok: false, error: expect.stringContaining("“forever”") });
  });
});
