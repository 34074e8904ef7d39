import type { FileEntry, SandboxFS } from "../ports/sandbox";

/** Files above this size are not loaded as instructions or skills. */
export const MAX_INSTRUCTION_BYTES = 100 * 1024;

/** A text file read for the prompt: its content, or why it was skipped (never a throw). */
export type TextRead = { ok: true; content: string } | { ok: false; warning: string };

/**
 * Reads a small UTF-8 text file. Missing, unreadable, binary (NUL bytes or
 * invalid UTF-8) and oversized files come back as warnings naming the file.
 * `known`: the file's entry as a listing or a stat a moment ago gave it (each
 * look is a round trip to a sandbox in a Worker); the read still checks the size.
 */
export async function readTextFile(fs: SandboxFS, path: string, known?: FileEntry, maxBytes = MAX_INSTRUCTION_BYTES): Promise<TextRead> {
  try {
    const st = known ?? (await fs.stat(path));
    if (st?.type !== "file") return { ok: false, warning: `${path}: not found` };
    if (st.size > maxBytes) return { ok: false, warning: `${path}: skipped, larger than ${Math.round(maxBytes / 1024)} KB` };
    const bytes = await fs.readFile(path);
    if (bytes.byteLength > maxBytes) return { ok: false, warning: `${path}: skipped, larger than ${Math.round(maxBytes / 1024)} KB` };
    if (bytes.includes(0)) return { ok: false, warning: `${path}: skipped, looks like a binary file` };
    let content: string;
    try {
      content = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return { ok: false, warning: `${path}: skipped, not valid UTF-8 text` };
    }
    return { ok: true, content: content.replace(/^\uFEFF/, "") };
  } catch (e) {
    return { ok: false, warning: `${path}: could not be read (${e instanceof Error ? e.message : String(e)})` };
  }
}
