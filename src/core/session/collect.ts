/**
 * Storage a live session stops needing: when history is dropped (a revert is
 * committed by the next prompt, with the branches that grew out of the
 * removed turns), the full outputs its tool calls saved in the workspace go
 * now; snapshot trees and blobs are collected by the app across sessions
 * (`SessionServiceDeps.historyDropped`, core/snapshot/gc.ts).
 */
import type { Sandbox } from "../ports/sandbox";
import type { MessageWithParts } from "../schema";
import { TRUNCATION_DIR } from "../tools/truncate";

/** The saved full outputs (of truncated tool results) `messages` name. */
export function savedOutputs(messages: readonly MessageWithParts[]): Set<string> {
  const out = new Set<string>();
  for (const m of messages)
    for (const p of m.parts) {
      const path = p.type === "tool" && p.state.status !== "pending" ? p.state.metadata?.outputPath : undefined;
      if (typeof path === "string") out.add(path);
    }
  return out;
}

/** Deletes the saved outputs only `dropped` named (never one `kept` still names, never outside the output folder). */
export async function dropSavedOutputs(sandbox: Sandbox, dropped: readonly MessageWithParts[], kept: readonly MessageWithParts[]): Promise<string[]> {
  const still = savedOutputs(kept);
  const folder = `${sandbox.root}/${TRUNCATION_DIR}/`;
  const gone: string[] = [];
  for (const path of savedOutputs(dropped)) {
    if (still.has(path) || !path.startsWith(folder) || path.slice(folder.length).includes("/") || path.includes("..")) continue;
    await sandbox.fs.rm(path);
    gone.push(path);
  }
  return gone;
}
