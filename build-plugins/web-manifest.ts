/** The web app manifest (vite-plugin-pwa writes it as manifest.webmanifest); its own module so tests can read it. */
import type { ManifestOptions } from "vite-plugin-pwa";

export const webManifest: Partial<ManifestOptions> = {
  name: "tabcode",
  short_name: "tabcode",
  description: "A coding agent that lives in a browser tab.",
  theme_color: "#3b5bdb",
  background_color: "#14161d",
  display: "standalone",
  icons: [{ src: "favicon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }],
  // Installed app: open other agents' histories and exports with tabcode ("Import history").
  file_handlers: [
    {
      // The launch parameter keeps that page where it is (src/app/isolation.ts: the files are handed to it).
      action: "./?launch=files",
      accept: {
        "application/vnd.sqlite3": [".db", ".sqlite", ".db-wal"],
        "application/json": [".json"],
        "application/jsonl": [".jsonl"],
        "application/zip": [".zip"],
      },
    },
  ],
  launch_handler: { client_mode: "focus-existing" },
  // Installed app in the system share sheet: files shared to tabcode go to "Import history"
  // (public/share-target-sw.js receives the POST in the service worker; src/app/shared-files.ts takes them).
  share_target: {
    action: "./share-target",
    method: "POST",
    enctype: "multipart/form-data",
    params: { files: [{ name: "files", accept: [".db", ".db-wal", ".sqlite", ".json", ".jsonl", ".zip", "application/json", "application/zip", "application/octet-stream", "application/vnd.sqlite3"] }] },
  },
};
