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

/**
 * The files one step changed (`scope: "step"`, the message holding the patch
 * part) or the whole turn it belongs to (`"turn"`: every step answering the
 * same user message): from the first step's snapshot before to the last one's after.
 */
export function changesOf(messages: MessageWithParts[], messageID: string, scope: "step" | "turn"): ChangeSet | undefined {
  const at = messages.find((m) => m.info.id === messageID);
  if (!at || at.info.role !== "assistant") return undefined;
  const parentID = at.info.parentID;
  const steps = scope === "step" ? [at] : messages.filter((m) => m.info.role === "assistant" && m.info.parentID === parentID);
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

