import { createLocalSandboxForTests } from "../adapters/sandbox/local/testing";
import type { Sandbox } from "../core/ports/sandbox";
import { workspaceTools } from "../core/tools/index";
import { defineTool } from "../core/tools/tool";
import { z } from "../core/zod";
import { FakeLLM, textTurn, toolTurn } from "./fake-llm";
import { makeTestService } from "./session-service";

/**
 * A turn run to its end whose one step writes model.txt with bash, then runs `act` as the person would while the
 * step still runs (a save in the viewer, an upload, a rename in the Files panel). Returns the session, its prompt
 * and the files the step's patch names, for a test of what the step counts as its own and what a revert undoes.
 */
export async function personActsDuringStep(files: Record<string, string>, act: (sandbox: Sandbox) => Promise<void>) {
  const sandbox = await createLocalSandboxForTests({ files });
  const during = defineTool({
    id: "wait",
    description: "waits",
    parameters: z.object({}),
    async execute() {
      await act(sandbox);
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
  const { store, service } = makeTestService({ llm, tools: [...workspaceTools, during], sandbox });
  const s = await service.createSession();
  const user = await service.prompt(s.id, { text: "go" });
  await service.ensureRunning(s.id);
  const patched = (await store.messages(s.id)).flatMap((m) => m.parts).flatMap((p) => (p.type === "patch" ? p.files : []));
  return { store, sandbox, s, user, patched };
}
