import { describe, expect, it } from "vitest";
import { z } from "../zod";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import { FakeLLM, textTurn, toolTurn } from "../../testing/fake-llm";
import { makeTestService } from "../../testing/session-service";
import type { Ruleset } from "../schema";
import { revertSession } from "../session/revert";
import { workspaceTools } from "../tools/index";
import { defineTool } from "../tools/tool";
import { saveUserFile } from "./save-user-file";

const protect: Ruleset = [{ permission: "protect", pattern: "config/**", action: "deny" }];

describe("saveUserFile (editing a file in the viewer)", () => {
  it("writes the person's edit; a protect rule refuses it in words and nothing is written", async () => {
    const sandbox = await createLocalSandboxForTests({ files: { "app.txt": "one\n", "config/app.json": "{}\n" } });
    expect(await saveUserFile(sandbox, "app.txt", "two\n", [protect])).toEqual({ ok: true });
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("two\n");
    const refused = await saveUserFile(sandbox, "config/app.json", '{"x":1}\n', [protect]);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? "" : refused.message).toContain('protected by your rule "protect config/**"');
    expect(await sandbox.fs.readText("/workspace/config/app.json")).toBe("{}\n");
  });

  it("ignores the agent's edit rules: they are about the model, not the person", async () => {
    const sandbox = await createLocalSandboxForTests({ files: { "notes.md": "a\n" } });
    const planAgent: Ruleset = [{ permission: "edit", pattern: "*", action: "deny" }];
    expect(await saveUserFile(sandbox, "notes.md", "b\n", [planAgent])).toEqual({ ok: true });
  });

  it("an edit saved while a step runs stays out of the step's patch, and reverting the turn keeps it", async () => {
    let sandboxRef: Awaited<ReturnType<typeof createLocalSandboxForTests>> | undefined;
    // Stands in for the person saving the file in the viewer while the model works.
    const userSaves = defineTool({
      id: "wait",
      description: "waits",
      parameters: z.object({}),
      async execute() {
        if (sandboxRef) await saveUserFile(sandboxRef, "app.txt", "edited by the person\n", []);
        return { title: "waited", output: "ok" };
      },
    });
    const llm = new FakeLLM([
      toolTurn([
        { tool: "bash", input: { command: "echo by the model > model.txt", description: "write" } },
        { tool: "wait", input: {} },
      ]),
      textTurn("done"),
    ]);
    const sandbox = await createLocalSandboxForTests({ files: { "app.txt": "version one\n" } });
    sandboxRef = sandbox;
    const { store, service } = makeTestService({ llm, tools: [...workspaceTools, userSaves], sandbox });
    const s = await service.createSession();
    const user = await service.prompt(s.id, { text: "go" });
    await service.ensureRunning(s.id);
    const patched = (await store.messages(s.id)).flatMap((m) => m.parts).flatMap((p) => (p.type === "patch" ? p.files : []));
    expect(patched).toEqual(["model.txt"]);
    await revertSession(store, sandbox, s.id, user.id);
    expect(await sandbox.fs.exists("/workspace/model.txt")).toBe(false);
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("edited by the person\n");
  });
});
