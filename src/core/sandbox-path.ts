/**
 * POSIX path helpers for sandbox paths, and confinement of user/model paths
 * to a workspace root. Every tool resolves its path arguments here, so `../`,
 * absolute paths outside the root and null bytes are refused in one place.
 */

/** Collapses `//`, `.` and `..` in an absolute POSIX path (never climbs above `/`). */
export function normalizePath(path: string): string {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return `/${out.join("/")}`;
}

/** Joins segments and normalises the result as an absolute path. */
export function joinPath(...parts: string[]): string {
  return normalizePath(parts.filter((p) => p !== "").join("/"));
}

export function dirname(path: string): string {
  const n = normalizePath(path);
  const i = n.lastIndexOf("/");
  return i <= 0 ? "/" : n.slice(0, i);
}

export function basename(path: string): string {
  const n = normalizePath(path);
  return n.slice(n.lastIndexOf("/") + 1);
}

/** Extension including the dot, lower-cased (`""` when none). */
export function extname(path: string): string {
  const b = basename(path);
  const i = b.lastIndexOf(".");
  return i <= 0 ? "" : b.slice(i).toLowerCase();
}

/** Whether `path` is `root` itself or below it (both absolute). */
export function isInside(root: string, path: string): boolean {
  const r = normalizePath(root);
  const p = normalizePath(path);
  return r === "/" || p === r || p.startsWith(`${r}/`);
}

/** `path` relative to `root` (`"."` for the root itself); assumes `isInside`. */
export function relativeTo(root: string, path: string): string {
  const r = normalizePath(root);
  const p = normalizePath(path);
  if (p === r) return ".";
  return r === "/" ? p.slice(1) : p.slice(r.length + 1);
}

/** A path resolved inside the workspace, or why it was refused. */
export type ResolvedPath = { ok: true; abs: string; rel: string } | { ok: false; error: string };

/**
 * Resolves `input` (absolute, or relative to `cwd`, default the root) and
 * confines it to `root`.
 */
export function resolveInRoot(root: string, input: string, cwd: string = root): ResolvedPath {
  if (input.includes("\0")) return { ok: false, error: "The path contains a null byte; refusing it." };
  const trimmed = input.trim();
  if (trimmed === "") return { ok: false, error: "The path is empty." };
  const abs = trimmed.startsWith("/") ? normalizePath(trimmed) : joinPath(cwd, trimmed);
  if (!isInside(root, abs)) {
    return {
      ok: false,
      error: `The path "${input}" is outside the workspace (${root}). Only files inside ${root} can be used.`,
    };
  }
  return { ok: true, abs, rel: relativeTo(root, abs) };
}

/** Like `resolveInRoot`, but throws the refusal as an Error (for tools, whose throws become error results). */
export function confinePath(root: string, input: string, cwd?: string): { abs: string; rel: string } {
  const r = resolveInRoot(root, input, cwd);
  if (!r.ok) throw new Error(r.error);
  return { abs: r.abs, rel: r.rel };
}
