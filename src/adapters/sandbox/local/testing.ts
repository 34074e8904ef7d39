/**
 * A local sandbox for Node tests: real just-bash over an in-memory store
 * (or the store given), optionally seeded with files.
 */
import { LocalSandbox, type LocalLimits } from "./local-sandbox";
import type { LocalRuntimes } from "./runtimes/commands";
import { type SeedFiles, seedWorkspace } from "./workspace-ops";
import { MemoryWorkspaceStore, type WorkspaceStore } from "./workspace-store";

export interface TestSandboxOptions {
  files?: SeedFiles;
  store?: WorkspaceStore;
  workspace?: string;
  limits?: Partial<LocalLimits>;
  runtimes?: LocalRuntimes;
}

export async function createLocalSandboxForTests(opts: TestSandboxOptions = {}): Promise<LocalSandbox> {
  const store = opts.store ?? new MemoryWorkspaceStore();
  const workspace = opts.workspace ?? "test";
  if (opts.files) await seedWorkspace(store, workspace, opts.files);
  return LocalSandbox.open({ workspace, store, limits: opts.limits, runtimes: opts.runtimes });
}
