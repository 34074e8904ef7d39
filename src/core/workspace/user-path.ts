/**
 * A path a person types in the Files panel (New file, Rename): relative to the
 * workspace folder. Every refusal is a sentence a user can act on.
 */
import { isInside, normalizePath, relativeTo } from "../sandbox-path";

/** Folders the Files panel hides (at any depth), and so never creates, moves or deletes anything in. */
const RESERVED = new Map([
  [".git", "is git's own folder"],
  ["node_modules", "holds installed packages, which are not kept with the workspace"],
  [".tabcode", "holds tabcode's own files (saved tool outputs, plans)"],
]);

/** Whether a folder or file name is one the Files panel hides. */
export function isReservedName(name: string): boolean {
  return RESERVED.has(name);
}

export type UserPath = { ok: true; rel: string; folder: boolean } | { ok: false; error: string };

const MAX_NAME_BYTES = 255;
const example = "for example src/util.ts";

/**
 * `input` as a workspace-relative path (`rel`, `/`-separated, no `.` segments), or why it cannot be one.
 * An absolute path inside `root` is taken relative to it (the agent's tools name files that way); a trailing
 * `/` (`folder`) names a folder. Backslashes count as `/`, as in uploads.
 */
export function userPath(root: string, input: string): UserPath {
  let text = input.trim().replaceAll("\\", "/");
  if (text === "") return { ok: false, error: `Type a path, ${example}.` };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(text)) return { ok: false, error: "The path contains a line break or another control character, which a file name here cannot hold." };
  const folder = text.endsWith("/");
  const outside = `“${input.trim()}” is outside the workspace (${root}). Paths start at the workspace folder, ${example}.`;
  if (/^[A-Za-z]:\//.test(text)) return { ok: false, error: outside };
  const segments = text.split("/");
  if (segments.includes("..")) return { ok: false, error: "“..” (the folder above) cannot be used: the path must stay inside the workspace." };
  if (segments[0] === "~") return { ok: false, error: `“~” (a home folder) means nothing here: paths start at the workspace folder, ${example}.` };
  if (text.startsWith("/")) {
    const abs = normalizePath(text);
    if (!isInside(root, abs)) return { ok: false, error: outside };
    text = relativeTo(root, abs);
  }
  const names = text.split("/").filter((s) => s !== "" && s !== ".");
  if (names.length === 0) return { ok: false, error: `That is the workspace folder itself. Add a name, ${example}.` };
  for (const name of names) {
    const why = RESERVED.get(name);
    if (why !== undefined) return { ok: false, error: `“${name}” ${why}: Files does not create, move or delete anything in it.` };
    if (name.trim() !== name) return { ok: false, error: `The name “${name}” starts or ends with a space. Remove the space (such names are easy to mistype later).` };
    if (new TextEncoder().encode(name).length > MAX_NAME_BYTES) return { ok: false, error: `The name “${name.slice(0, 24)}…” is longer than ${MAX_NAME_BYTES} bytes, the most a file name can have.` };
  }
  return { ok: true, rel: names.join("/"), folder };
}
