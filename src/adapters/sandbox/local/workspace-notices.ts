/**
 * Notices between the sandboxes of one workspace in different tabs. Each tab's sandbox Worker holds its own
 * copy of the workspace in memory; when one of them persists a change it says which paths it wrote and
 * removed on a BroadcastChannel named after the store's scope and the workspace, and the others bring
 * those paths up to date from the store (`LocalSandbox`). A notice may be lost (a tab asleep, no
 * BroadcastChannel): the store's generation token (`WorkspaceStamps`) is the safety net.
 */

/** What a sandbox persisted: relative paths, and the generation tokens its write replaced and set. */
export interface PathsNotice {
  /** The sending sandbox (a sandbox ignores its own notices). */
  from: string;
  before: string | undefined;
  after: string;
  put: string[];
  remove: string[];
}

/** The whole workspace was replaced or deleted (seeding, a fork's copy, a delete): reload all of it. */
export interface WholeNotice {
  from: string;
  all: true;
}

export type WorkspaceNotice = PathsNotice | WholeNotice;

/** More paths than this in one write are sent as a whole-workspace notice. */
export const MAX_NOTICE_PATHS = 5_000;

export interface NoticeChannel {
  post(notice: WorkspaceNotice): void;
  close(): void;
}

function channelName(scope: string, workspace: string): string {
  return `tabcode-workspace:${scope}:${workspace}`;
}

function isNotice(v: unknown): v is WorkspaceNotice {
  if (typeof v !== "object" || v === null) return false;
  const n = v as Record<string, unknown>;
  if (typeof n.from !== "string") return false;
  if (n.all === true) return true;
  return typeof n.after === "string" && Array.isArray(n.put) && Array.isArray(n.remove);
}

/** Listens for (and sends) notices of this workspace; undefined where there is no BroadcastChannel. */
export function openNotices(scope: string, workspace: string, onNotice: (notice: WorkspaceNotice) => void): NoticeChannel | undefined {
  if (typeof BroadcastChannel !== "function") return undefined;
  const channel = new BroadcastChannel(channelName(scope, workspace));
  // In Node an open channel keeps the process alive; a sandbox's never should.
  (channel as { unref?: () => void }).unref?.();
  channel.onmessage = (e: MessageEvent<unknown>) => {
    if (isNotice(e.data)) onNotice(e.data);
  };
  return {
    post: (notice) => channel.postMessage(notice),
    close: () => channel.close(),
  };
}

/** Tells every sandbox of the workspace that all of it changed (from a page that wrote the store itself). */
export function announceWholeWorkspace(scope: string, workspace: string): void {
  if (typeof BroadcastChannel !== "function") return;
  const channel = new BroadcastChannel(channelName(scope, workspace));
  channel.postMessage({ from: "page", all: true } satisfies WholeNotice);
  channel.close();
}
