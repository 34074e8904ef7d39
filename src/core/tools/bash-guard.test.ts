/**
 * The bash tool with the exec guard, the real permission broker and real
 * just-bash: the line's own ask words the dialog; commands run from inside it
 * are asked once each; a rejection mid-run stops the turn; a protect rule holds
 * for the write tool as well.
 */
import { describe, expect, it } from "vitest";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { makeToolContext } from "../../testing/workspace-tool-context";
import { PermissionBroker } from "../permission/broker";
import { DEFAULT_RULES } from "../permission/evaluate";
import type { Ruleset } from "../schema";
import { bashTool } from "./bash";
import type { ToolContext } from "./tool";
import { writeTool } from "./write";

async function setup(rules: Ruleset, answer: (patterns: string[]) => "once" | "reject") {
  const sandbox = await createLocalSandboxForTests({ files: { "victim.txt": "v\n", "s.sh": "rm victim.txt\nrm victim.txt\necho end\n", "config/app.json": "{}\n" } });
  const broker = new PermissionBroker(() => [[...DEFAULT_RULES, ...rules]]);
  const asked: string[][] = [];
  broker.subscribe(() => {
    for (const p of broker.pending()) {
      asked.push(p.patterns);
      broker.reply(p.id, { type: answer(p.patterns) });
    }
  });
  const base = makeToolContext({ sandbox });
  const ctx: ToolContext = {
    ...base,
    ask: (req) => broker.ask("ses_test", { ...req, title: "bash" }),
    rules: broker.rulesFor("ses_test"),
    refused: (permission, pattern, rule) => broker.noteRefusal("ses_test", permission, pattern, rule),
  };
  return { sandbox, broker, asked, ctx };
}

describe("bash with the exec guard", () => {
  it("asks about the line, then once about each distinct command a script runs", async () => {
    const { sandbox, asked, ctx } = await setup([{ permission: "bash", pattern: "*", action: "ask" }], () => "once");
    const r = await bashTool.run({ command: "sh s.sh", description: "run the script" }, ctx);
    expect(r.ok).toBe(true);
    expect(asked).toEqual([["sh s.sh"], ["rm victim.txt"], ["echo end"]]);
    expect(await sandbox.fs.exists("/workspace/victim.txt")).toBe(false);
  });

  it("a nested question shows the command with its arguments quoted as the shell needs them, and the line that runs it", async () => {
    const { ctx: base } = await setup([{ permission: "bash", pattern: "grep *", action: "ask" }], () => "once");
    const seen: { command: unknown; within: unknown; patterns: string[] }[] = [];
    const ctx: ToolContext = {
      ...base,
      ask: (req) => {
        seen.push({ command: req.metadata?.command, within: req.metadata?.within, patterns: req.patterns });
        return base.ask(req);
      },
    };
    const r = await bashTool.run({ command: "echo 'grep -n \"const month\" victim.txt' > q.sh && sh q.sh", description: "search" }, ctx);
    expect(r.ok).toBe(true);
    expect(seen.at(-1)).toEqual({ command: "grep -n 'const month' victim.txt", within: "echo 'grep -n \"const month\" victim.txt' > q.sh && sh q.sh", patterns: ["grep -n const month victim.txt"] });
  });

  it("an approval stands for the command as shown: approving rm 'a b' does not approve rm a b", async () => {
    const { sandbox, asked, ctx } = await setup([{ permission: "bash", pattern: "rm *", action: "ask" }], () => "once");
    await sandbox.fs.writeFile("/workspace/t.sh", 'rm -f "a b"\nrm -f "a b"\nrm -f a b\n');
    const r = await bashTool.run({ command: "sh t.sh", description: "remove" }, ctx);
    expect(r.ok).toBe(true);
    // Both forms match "rm *" as the joined text "rm -f a b"; each is asked about once, in its own form.
    expect(asked).toEqual([["rm -f a b"], ["rm -f a b"]]);
  });

  it("a rejection of a nested command stops the turn and the command never runs", async () => {
    const { sandbox, ctx } = await setup([{ permission: "bash", pattern: "rm *", action: "ask" }], () => "reject");
    const r = await bashTool.run({ command: "sh s.sh", description: "run the script" }, ctx);
    expect(r).toMatchObject({ ok: false, rejected: true });
    expect(await sandbox.fs.exists("/workspace/victim.txt")).toBe(true);
  });

  it("logs refusals with their rules, for commands and for protected paths", async () => {
    const { broker, ctx } = await setup(
      [
        { permission: "bash", pattern: "rm *", action: "deny" },
        { permission: "protect", pattern: "config/**", action: "deny" },
      ],
      () => "once",
    );
    const r = await bashTool.run({ command: "sh s.sh", description: "script" }, ctx);
    expect(r.ok && r.result.output).toContain('refused — denied by your rule "bash rm *"');
    const w = await bashTool.run({ command: "echo x > config/app.json", description: "overwrite" }, ctx);
    expect(w.ok && w.result.output).toContain('config/app.json: truncate refused — protected by your rule "protect config/**" (the command line stopped here)');
    const log = broker.decisions("ses_test").filter((d) => d.action === "deny");
    expect(log.map((d) => [d.permission, d.pattern, d.rule?.pattern])).toEqual([
      ["bash", "rm victim.txt", "rm *"],
      ["protect", "/workspace/config/app.json", "config/**"],
    ]);
  });

  it("sed -i and tee on a protected file tell the model it is protected, as a redirection does", async () => {
    const { sandbox, ctx } = await setup([{ permission: "protect", pattern: "config/**", action: "deny" }], () => "once");
    const sed = await bashTool.run({ command: "sed -i s/a/b/ config/app.json", description: "edit in place" }, ctx);
    expect(sed.ok && sed.result.output).toContain('sed: config/app.json: write refused — protected by your rule "protect config/**"');
    expect(sed.ok && sed.result.output).not.toContain("No such file or directory");
    const tee = await bashTool.run({ command: "echo x | tee config/app.json", description: "overwrite" }, ctx);
    expect(tee.ok && tee.result.output).toContain('tee: config/app.json: write refused — protected by your rule "protect config/**"');
    expect(await sandbox.fs.readText("/workspace/config/app.json")).toBe("{}\n");
  });

  it("the write tool refuses a protected path, directly and through a link", async () => {
    const { sandbox, ctx } = await setup([{ permission: "protect", pattern: "config/**", action: "deny" }], () => "once");
    const direct = await writeTool.run({ filePath: "/workspace/config/new.json", content: "x" }, ctx);
    expect(direct).toMatchObject({ ok: false, error: expect.stringContaining('protected by your rule "protect config/**"') });
    await sandbox.exec("ln -s config cfg");
    const linked = await writeTool.run({ filePath: "/workspace/cfg/new.json", content: "x" }, ctx);
    expect(linked).toMatchObject({ ok: false, error: expect.stringContaining("protected by your rule") });
    expect(await sandbox.fs.exists("/workspace/config/new.json")).toBe(false);
  });
});
