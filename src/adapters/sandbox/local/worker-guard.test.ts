/**
 * The exec guard across the Worker boundary: rules go with the exec request,
 * asks come back to the page and wait for its answer, refusals are reported.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../core/permission/evaluate";
import { type PathRefusal, pathPolicy } from "../../../core/permission/path-policy";
import type { Ruleset } from "../../../core/schema";
import { LocalSandbox } from "./local-sandbox";
import { type WorkerLike, WorkerSandbox } from "./worker-client";
import { WorkerHost } from "./worker-host";
import type { WorkerRequest, WorkerResponse } from "./worker-protocol";
import { seedWorkspace } from "./workspace-ops";
import { MemoryWorkspaceStore } from "./workspace-store";

class InProcessWorker implements WorkerLike {
  onmessage: ((e: MessageEvent<WorkerResponse>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  private readonly host: WorkerHost;
  constructor(store: MemoryWorkspaceStore) {
    this.host = new WorkerHost(
      (msg) => {
        const data = structuredClone(msg);
        setTimeout(() => this.onmessage?.({ data } as MessageEvent<WorkerResponse>), 0);
      },
      (workspace) => LocalSandbox.open({ workspace, store }),
    );
  }
  postMessage(message: WorkerRequest): void {
    const data = structuredClone(message);
    setTimeout(() => void this.host.handle(data), 0);
  }
  terminate(): void {}
}

async function setup() {
  const store = new MemoryWorkspaceStore();
  await seedWorkspace(store, "ses_g", { "victim.txt": "v\n", "config/app.json": "{}\n", "s.sh": "rm victim.txt\nrm victim.txt\necho done\n" });
  return new WorkerSandbox("ses_g", () => new InProcessWorker(store));
}

describe("exec guard through the sandbox Worker", () => {
  it("asks the page once per distinct command run by a script, and runs it only when allowed", async () => {
    const sb = await setup();
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "bash", pattern: "rm *", action: "ask" }];
    const asked: string[] = [];
    const refuse = await sb.exec("sh s.sh", {
      guard: {
        policy: pathPolicy(sb.root, [rules]),
        ask: async (c) => {
          asked.push(c);
          return "the user said no";
        },
      },
    });
    expect(asked).toEqual(["rm victim.txt"]);
    expect(refuse.combined).toContain("the user said no");
    expect(await sb.fs.exists("/workspace/victim.txt")).toBe(true);
    const allow = await sb.exec("sh s.sh", { guard: { policy: pathPolicy(sb.root, [rules]), ask: async () => undefined } });
    expect(allow.stdout).toContain("done");
    expect(await sb.fs.exists("/workspace/victim.txt")).toBe(false);
  });

  it("reports denied commands and refused paths to the page", async () => {
    const sb = await setup();
    const rules: Ruleset = [
      ...DEFAULT_RULES,
      { permission: "bash", pattern: "rm *", action: "deny" },
      { permission: "protect", pattern: "config/**", action: "deny" },
    ];
    const denied: string[] = [];
    const paths: PathRefusal[] = [];
    const guard = { policy: pathPolicy(sb.root, [rules]), denied: (c: string) => denied.push(c), pathRefused: (r: PathRefusal) => paths.push(r) };
    await sb.exec("sh s.sh; sed -i d config/app.json", { guard });
    expect(denied).toEqual(["rm victim.txt"]);
    expect(paths.map((p) => [p.path, p.rule?.pattern])).toEqual([["/workspace/config/app.json", "config/**"]]);
    expect(await sb.fs.readText("/workspace/config/app.json")).toBe("{}\n");
  });

  it("the write tool's fs call refuses a protected path through a symlink", async () => {
    const sb = await setup();
    await sb.exec("ln -s config/app.json alias.json");
    const policy = pathPolicy(sb.root, [[...DEFAULT_RULES, { permission: "protect", pattern: "config/**", action: "deny" }]]);
    await expect(sb.fs.writeFile("/workspace/alias.json", "x", { policy })).rejects.toThrow(/protected by your rule "protect config\/\*\*"/);
    expect(await sb.fs.readText("/workspace/config/app.json")).toBe("{}\n");
  });
});
