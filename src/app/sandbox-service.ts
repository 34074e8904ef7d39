/**
 * The page's sandbox: decides the backend once per page load (lazily, at the
 * first use), opens one sandbox per session, and exposes the decision and its
 * reason to the UI.
 */
import type { SandboxChoice, SandboxPreference } from "../adapters/sandbox/choose";
import type { Sandbox } from "../core/ports/sandbox";

export type SandboxStatus =
  | { state: "idle" }
  | { state: "choosing" }
  | { state: "ready"; kind: "webcontainer" | "local"; reason: string; licenceNote?: string }
  | { state: "failed"; reason: string };

export class SandboxService {
  private choice: Promise<SandboxChoice> | undefined;
  private open = new Map<string, Promise<Sandbox>>();
  private current: SandboxStatus = { state: "idle" };
  private listeners = new Set<() => void>();

  constructor(private readonly preference: () => SandboxPreference) {}

  status = (): SandboxStatus => this.current;
  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => {
      this.listeners.delete(l);
    };
  };

  private set(s: SandboxStatus): void {
    this.current = s;
    for (const l of this.listeners) l();
  }

  /** The backend for this page load (decided once; a change of preference applies after a reload). */
  decide(): Promise<SandboxChoice> {
    if (!this.choice) {
      this.set({ state: "choosing" });
      this.choice = import("../adapters/sandbox/choose")
        .then((m) => m.chooseSandbox(this.preference()))
        .then((c) => {
          this.set({ state: "ready", kind: c.kind, reason: c.reason, licenceNote: c.licenceNote });
          return c;
        })
        .catch((e: unknown) => {
          const reason = e instanceof Error ? e.message : String(e);
          this.set({ state: "failed", reason });
          throw e;
        });
    }
    return this.choice;
  }

  /** The session's sandbox, opened once per page. */
  sandboxFor(sessionID: string): Promise<Sandbox> {
    let sb = this.open.get(sessionID);
    if (!sb) {
      sb = this.decide().then((c) => c.open(sessionID));
      sb.catch(() => this.open.delete(sessionID));
      this.open.set(sessionID, sb);
    }
    return sb;
  }

  /** Copies a session's files into another (fork), optionally as they were at a snapshot. */
  async copyWorkspace(from: string, to: string, atSnapshot?: string): Promise<void> {
    const { copyWorkspace } = await import("../adapters/sandbox/local/index");
    await copyWorkspace(from, to, atSnapshot);
  }

  /** Frees snapshot storage no session needs any more (`liveTrees`: every snapshot a session still names). */
  async collectGarbage(liveTrees: ReadonlySet<string>): Promise<{ trees: number; blobs: number; bytes: number }> {
    const { collectWorkspaceGarbage } = await import("../adapters/sandbox/local/index");
    return collectWorkspaceGarbage(liveTrees);
  }

  /** Storage a session's workspace uses. */
  async usage(sessionID: string, trees: Iterable<string>): Promise<{ files: number; history: number }> {
    const { sessionWorkspaceUsage } = await import("../adapters/sandbox/local/index");
    return sessionWorkspaceUsage(sessionID, trees);
  }

  async deleteWorkspace(sessionID: string): Promise<void> {
    this.open.delete(sessionID);
    const { deleteWorkspace } = await import("../adapters/sandbox/local/index");
    await deleteWorkspace(sessionID);
  }

  async seedWorkspace(sessionID: string, files: Record<string, string | Uint8Array>): Promise<void> {
    const { seedWorkspace } = await import("../adapters/sandbox/local/index");
    await seedWorkspace(sessionID, files);
  }
}
