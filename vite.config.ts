import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { engineAssets } from "./build-plugins/engine-assets";
import { glanceInline } from "./build-plugins/glance-inline";
import { isolation } from "./build-plugins/isolation";
import { webManifest } from "./build-plugins/web-manifest";
import { ENGINE_CACHE } from "./src/adapters/sandbox/local/runtimes/engine-files";

export default defineConfig({
  plugins: [
    react(),
    engineAssets(),
    // A cold open paints the last screen of the session at once (src/ui/glance/paint.ts), before the modules run.
    glanceInline(),
    // Cross-origin isolation only for WebContainer's page, isolated/ (the dev and preview servers' headers, its copy of the page).
    isolation(),
    // Offline history: after one visit the shell, workers and tokenizer ranks come from the service worker.
    VitePWA({
      registerType: "autoUpdate",
      // Registered by the app itself once the page is quiet (src/app/service-worker.ts), not at the load event.
      injectRegister: false,
      includeAssets: ["favicon.svg"],
      manifest: webManifest,
      workbox: {
        importScripts: ["share-target-sw.js", "sw-routes.js"],
        globPatterns: ["**/*.{js,css,html,svg,wasm,json,webmanifest}"],
        // The sandbox engines (Python: ~12 MB) are cached on first use, not at install ("Make available offline" pre-fetches them).
        // isolated/index.html is the same page: the service worker serves it from index.html (public/sw-routes.js).
        globIgnores: ["pyodide/**", "isolated/**"],
        runtimeCaching: [
          {
            urlPattern: ({ url }) => url.pathname.includes("/pyodide/"),
            handler: "CacheFirst",
            options: { cacheName: ENGINE_CACHE, cacheableResponse: { statuses: [200] } },
          },
        ],
        maximumFileSizeToCacheInBytes: 12 * 1024 * 1024,
        clientsClaim: true,
        skipWaiting: true,
        navigateFallback: "index.html",
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  resolve: {
    alias: {
      // just-bash's browser build imports node:zlib for gzip; the shim makes those commands report "unavailable".
      "node:zlib": new URL("./src/adapters/sandbox/local/zlib-shim.ts", import.meta.url).pathname,
    },
  },
  worker: { format: "es" },
  // sqlite-wasm finds its .wasm next to its module: keep it out of dev pre-bundling.
  optimizeDeps: { exclude: ["@sqlite.org/sqlite-wasm"] },
  build: { target: "es2022", sourcemap: true, chunkSizeWarningLimit: 1500 },
});
