import { describe, expect, it } from "vitest";
import { personActsDuringStep } from "../../testing/during-step";
import { createLocalSandboxForTests } from "../../adapters/sandbox/local/testing";
import type { Ruleset } from "../schema";
import { revertSession } from "../session/revert";
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
    // The person saves the file in the viewer while the model works.
    const { store, sandbox, s, user, patched } = await personActsDuringStep({ "app.txt": "version one\n" }, async (sb) => {
      await saveUserFile(sb, "app.txt", "edited by the person\n", []);
    });
    expect(patched).toEqual(["model.txt"]);
    await revertSession(store, sandbox, s.id, user.id);
    expect(await sandbox.fs.exists("/workspace/model.txt")).toBe(false);
    expect(await sandbox.fs.readText("/workspace/app.txt")).toBe("edited by the person\n");
  });
});
