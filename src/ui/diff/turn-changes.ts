import type { MessageWithParts, PatchPart } from "../../core/schema";

/** Where a set of changed files stands: before (`from`) and after (`to`; the current files when unknown). */
export interface ChangeSet {
  from: string;
  to?: string;
  files: string[];
}

/** Where a step (one assistant message) left the workspace. */
function snapshotAfter(m: MessageWithParts): string | undefined {
  let snap: string | undefined;
  for (const p of m.parts) {
    if (p.type === "step-finish" && p.snapshot) snap = p.snapshot;
    else if (p.type === "snapshot") snap = p.snapshot;
  }
  return snap;
}

const patchOf = (m: MessageWithParts) => m.parts.filter((p): p is PatchPart => p.type === "patch");

/** The assistant messages a change set spans: the step itself, or every step answering the same user message. */
export function stepsOf(messages: MessageWithParts[], messageID: string, scope: "step" | "turn"): MessageWithParts[] {
  const at = messages.find((m) => m.info.id === messageID);
  if (!at || at.info.role !== "assistant") return [];
  if (scope === "step") return [at];
  const parentID = at.info.parentID;
  return messages.filter((m) => m.info.role === "assistant" && m.info.parentID === parentID);
}

/**
 * Whether a recorded edit is of this workspace-relative file. tabcode's tools
 * name the file relative to the workspace in the patch itself (`Index: src/a.ts`);
 * otherwise an absolute path under the sandbox's root is read against it, and
 * one elsewhere (another machine's project) by its ending.
 */
function isOf(diff: string, filePath: unknown, file: string, root: string | undefined): boolean {
  const named = /^Index: (.+)$/m.exec(diff)?.[1]?.trim();
  if (named && !named.startsWith("/")) return named.replace(/^\.\//, "") === file;
  const path = typeof filePath === "string" ? filePath : named;
  if (!path) return false;
  if (path === file) return true;
  if (!path.startsWith("/")) return path.replace(/^\.\//, "") === file;
  // Under this sandbox's root: exactly that file. Elsewhere (another machine's project, where an imported
  // session ran): by its ending.
  const under = root ? `${root.replace(/\/$/, "")}/` : undefined;
  if (under && path.startsWith(under)) return path.slice(under.length) === file;
  return path.endsWith(`/${file}`);
}

/**
 * The unified patches the edit and write tools recorded for one file in these
 * steps, oldest first. They are what is left to show when the workspace's
 * versions are not here (a shared link carries no files; an imported session's
 * snapshots stayed in the browser it came from). A file changed by a command has none.
 */
export function recordedEdits(steps: MessageWithParts[], file: string, root?: string): string[] {
  const out: string[] = [];
  for (const m of steps)
    for (const p of m.parts) {
      if (p.type !== "tool" || p.state.status !== "completed") continue;
      const { diff, filePath } = p.state.metadata;
      if (typeof diff === "string" && diff && isOf(diff, filePath ?? p.state.input.filePath, file, root)) out.push(diff);
    }
  return out;
}

/**
 * The files one step changed (`scope: "step"`, the message holding the patch
 * part) or the whole turn it belongs to (`"turn"`: every step answering the
 * same user message): from the first step's snapshot before to the last one's after.
 */
export function changesOf(messages: MessageWithParts[], messageID: string, scope: "step" | "turn"): ChangeSet | undefined {
  const steps = stepsOf(messages, messageID, scope);
  let from: string | undefined;
  let to: string | undefined;
  const files: string[] = [];
  for (const m of steps) {
    const patches = patchOf(m);
    if (patches.length === 0) continue;
    from ??= patches[0]?.hash;
    for (const p of patches) for (const f of p.files) if (!files.includes(f)) files.push(f);
    to = snapshotAfter(m);
  }
  return from === undefined ? undefined : { from, to, files };
}

