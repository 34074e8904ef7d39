import { ascendingId } from "../ids";
import type { Sandbox } from "../ports/sandbox";

export const MAX_LINES = 2000;
export const MAX_BYTES = 50 * 1024;
/** Where full outputs are kept, relative to the workspace root. */
export const TRUNCATION_DIR = ".tabcode/tool-output";

export interface Truncated {
  output: string;
  truncated: boolean;
  /** Absolute sandbox path of the full output, when it was saved. */
  path?: string;
}

const encoder = new TextEncoder();

/** Cuts `text` to at most `maxLines` lines and `maxBytes` UTF-8 bytes, from the head. */
export function headPreview(text: string, maxLines = MAX_LINES, maxBytes = MAX_BYTES): { preview: string; cut: "lines" | "bytes" | null; removed: number } {
  const lines = text.split("\n");
  let bytes = 0;
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const size = encoder.encode(line).length + (i > 0 ? 1 : 0);
    if (kept.length >= maxLines) return { preview: kept.join("\n"), cut: "lines", removed: lines.length - kept.length };
    if (bytes + size > maxBytes) {
      const removedBytes = encoder.encode(text).length - bytes;
      return { preview: kept.join("\n"), cut: "bytes", removed: removedBytes };
    }
    kept.push(line);
    bytes += size;
  }
  return { preview: text, cut: null, removed: 0 };
}

/**
 * Central output truncation (spec §2.9): over 2,000 lines or 50 KB the model
 * gets a preview and a note; the full text is saved in the workspace, where
 * `read` and `grep` can reach it.
 */
export async function truncateOutput(text: string, ctx: { sandbox?: Sandbox }): Promise<Truncated> {
  const { preview, cut, removed } = headPreview(text);
  if (!cut) return { output: text, truncated: false };
  let path: string | undefined;
  if (ctx.sandbox) {
    path = `${ctx.sandbox.root}/${TRUNCATION_DIR}/${ascendingId("tool")}.txt`;
    try {
      await ctx.sandbox.fs.writeFile(path, text);
    } catch {
      path = undefined;
    }
  }
  const hint = path
    ? `The full output was saved to ${path}. Use grep to search it, or read with offset/limit to view parts of it.`
    : "The full output could not be saved; narrow the command to see the rest.";
  return { output: `${preview}\n\n…${removed} ${cut} truncated…\n\n${hint}`, truncated: true, path };
}
