/**
 * The files the sandbox engines download on first use, served from this
 * app's origin under `pyodide/` (copied there by the build) and kept by the
 * service worker in the `tabcode-engines` cache.
 */
export const PYODIDE_FILES = ["pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"] as const;
export const ENGINE_CACHE = "tabcode-engines";

export function engineUrls(base: string): string[] {
  return PYODIDE_FILES.map((f) => `${base}pyodide/${f}`);
}
