import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** Cross-origin isolation: WebContainer needs it; LLM fetches only need CORS. */
const isolation = {
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Embedder-Policy": "require-corp",
};

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      // just-bash's browser build imports node:zlib for gzip; the shim makes those commands report "unavailable".
      "node:zlib": new URL("./src/adapters/sandbox/local/zlib-shim.ts", import.meta.url).pathname,
    },
  },
  worker: { format: "es" },
  server: { headers: isolation },
  preview: { headers: isolation },
  build: { target: "es2022", sourcemap: true, chunkSizeWarningLimit: 1500 },
});
