/**
 * One WebContainer, many sessions: the container has one project directory,
 * and only the session that is running holds it. Before a session's command
 * or file operation, its files are mounted there (after the previous
 * session's were persisted and removed), so `ls ..` or `rm -r ..` from one
 * session can never reach another's files. Operations of the mounted session
 * run freely (in parallel); another session's wait until they are done.
 */
import type { FileSystemTree } from "@webcontainer/api";
import type { WorkspaceRow } from "./local/workspace-store";

/** What the coordinator needs from a session's sandbox. */
export interface Mountable {
  /** Writes the session's current files back to its store. */
  persist(): Promise<void>;
  /** The session's files as stored (rows and their blobs). */
  stored(): Promise<{ rows: WorkspaceRow[]; blobs: Map<string, Uint8Array> }>;
}

/** The container side: clear the project directory, mount a tree into it. */
export interface ProjectDir {
  clear(): Promise<void>;
  mount(tree: FileSystemTree): Promise<void>;
}

/** A mount tree from stored rows (directories kept, so empty ones survive). */
export function mountTree(rows: WorkspaceRow[], blobs: Map<string, Uint8Array>): FileSystemTree {
  const root: FileSystemTree = {};
  const dirOf = (segs: string[]): FileSystemTree => {
    let cur = root;
    for (const s of segs) {
      const node = cur[s];
      if (node && "directory" in node) cur = node.directory;
      else {
        const fresh: FileSystemTree = {};
        cur[s] = { directory: fresh };
        cur = fresh;
      }
    }
    return cur;
  };
  for (const r of [...rows].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const segs = r.path.split("/");
    const name = segs.pop();
    if (!name) continue;
    if (r.type === "directory") dirOf([...segs, name]);
    else if (r.type === "file") dirOf(segs)[name] = { file: { contents: blobs.get(r.hash ?? "") ?? new Uint8Array() } };
  }
  return root;
}

export class MountCoordinator {
  private active?: string;
  private inflight = 0;
  private drainedWaiters: Array<() => void> = [];
  private chain: Promise<void> = Promise.resolve();
  private readonly sessions = new Map<string, Mountable>();

  constructor(private readonly dir: ProjectDir) {}

  register(sessionID: string, sandbox: Mountable): void {
    this.sessions.set(sessionID, sandbox);
  }

  /** The session whose files are in the project directory now. */
  mounted(): string | undefined {
    return this.active;
  }

  /** Runs `fn` with `sessionID`'s files mounted. */
  async use<T>(sessionID: string, fn: () => Promise<T>): Promise<T> {
    await this.enter(sessionID);
    try {
      return await fn();
    } finally {
      this.inflight--;
      if (this.inflight === 0) for (const w of this.drainedWaiters.splice(0)) w();
    }
  }

  private enter(sessionID: string): Promise<void> {
    const step = this.chain.then(async () => {
      if (this.active !== sessionID) {
        if (this.inflight > 0) await new Promise<void>((r) => this.drainedWaiters.push(r));
        await this.switchTo(sessionID);
      }
      this.inflight++;
    });
    this.chain = step.catch(() => undefined);
    return step;
  }

  private async switchTo(sessionID: string): Promise<void> {
    const previous = this.active === undefined ? undefined : this.sessions.get(this.active);
    if (previous) await previous.persist();
    this.active = undefined;
    await this.dir.clear();
    const next = this.sessions.get(sessionID);
    if (next) {
      const { rows, blobs } = await next.stored();
      if (rows.length) await this.dir.mount(mountTree(rows, blobs));
    }
    this.active = sessionID;
  }
}
