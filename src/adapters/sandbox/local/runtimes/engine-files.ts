/**
 * The files the sandbox engines download on first use, served from this
 * app's origin under `pyodide/` (copied there by the build) and kept by the
 * service worker in the `tabcode-engines` cache. sqlite3's and node's
 * engines (sqlite-wasm 0.9 MB, QuickJS 0.5 MB) are ordinary build assets of
 * their Workers, so the service worker precaches them with the app shell.
 */
export const PYODIDE_FILES = ["pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"] as const;
export const ENGINE_CACHE = "tabcode-engines";

export function engineUrls(base: string): string[] {
  return PYODIDE_FILES.map((f) => `${base}pyodide/${f}`);
}
