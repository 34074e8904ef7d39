/**
 * Loading QuickJS for the `node` command: the release "sync" build (its
 * .wasm is emitted by the build on this origin; Node reads it from
 * node_modules). `NODE_DOWNLOAD_MB` is what the first use downloads.
 */
import type { QuickJSWASMModule } from "quickjs-emscripten-core";

export const NODE_DOWNLOAD_MB = 0.6;

export async function loadQuickJS(): Promise<QuickJSWASMModule> {
  const [{ newQuickJSWASMModuleFromVariant }, variant] = await Promise.all([import("quickjs-emscripten-core"), import("@jitl/quickjs-wasmfile-release-sync")]);
  return newQuickJSWASMModuleFromVariant(variant.default);
}
