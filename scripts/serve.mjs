// Static server for the built app (dist/): what `npm start` and the end-to-end tests run.
// The app's page is cross-origin isolated only under isolated/ (scripts/isolation-headers.mjs says
// why); every other response keeps the isolation headers. Unknown page routes fall back to
// index.html; missing assets are 404s.
//
//   node scripts/serve.mjs                 PORT env (default 4173); if taken, the next free port
//   node scripts/serve.mjs --strict-port   fail instead of moving to another port
import { createReadStream, existsSync, realpathSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isolationHeaders } from "./isolation-headers.mjs";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)), "dist");

export const MIME_TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
};

function fileAt(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  const full = normalize(join(root, decoded));
  if (full !== root && !full.startsWith(root + sep)) return undefined;
  if (!existsSync(full)) return undefined;
  const st = statSync(full);
  if (st.isDirectory()) {
    const index = join(full, "index.html");
    return existsSync(index) ? { path: index, size: statSync(index).size } : undefined;
  }
  return st.isFile() ? { path: full, size: st.size } : undefined;
}

function handler(root) {
  const indexHtml = join(root, "index.html");
  return (req, res) => {
    const urlPath = (req.url ?? "/").split("?")[0].split("#")[0];
    const headers = (page) => {
      for (const [k, v] of Object.entries(isolationHeaders(urlPath, page))) res.setHeader(k, v);
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      headers(false);
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" });
      return res.end("Method Not Allowed\n");
    }
    let file = fileAt(root, urlPath);
    // SPA fallback: a page route (no extension, or a browser asking for HTML) gets index.html.
    const wantsPage = extname(urlPath) === "" || (req.headers.accept ?? "").includes("text/html");
    if (!file && wantsPage && existsSync(indexHtml)) file = { path: indexHtml, size: statSync(indexHtml).size };
    if (!file) {
      headers(false);
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache" });
      return res.end("Not Found\n");
    }
    const type = MIME_TYPES[extname(file.path).toLowerCase()] ?? "application/octet-stream";
    headers(extname(file.path) === ".html");
    const hashed = urlPath.startsWith("/assets/");
    res.writeHead(200, {
      "Content-Type": type,
      "Content-Length": String(file.size),
      "Cache-Control": hashed ? "public, max-age=31536000, immutable" : "no-cache",
    });
    if (req.method === "HEAD") return res.end();
    createReadStream(file.path)
      .on("error", () => res.destroy())
      .pipe(res);
  };
}

function listenOnce(server, port, host) {
  return new Promise((resolvePromise, reject) => {
    const onError = (err) => {
      server.off("listening", onListening);
      reject(err);
    };
    const onListening = () => {
      server.off("error", onError);
      resolvePromise();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

function closeServer(server) {
  return new Promise((r) => {
    server.closeAllConnections?.();
    server.close(() => r());
  });
}

/**
 * Serves `root` (default dist/) on localhost: 127.0.0.1 and, when the machine has IPv6, ::1 on the
 * same port. When the port is taken, tries the next ones (up to 20) unless `strictPort` is set.
 * Resolves to `{ port, url, close }`.
 */
export async function startServer({ port = 4173, root = ROOT, strictPort = false, attempts = 20 } = {}) {
  const absRoot = resolve(root);
  if (!existsSync(join(absRoot, "index.html"))) {
    throw new Error(`${absRoot}/index.html not found: build the app first (npx vite build).`);
  }
  const handle = handler(absRoot);
  const tries = strictPort ? 1 : attempts;
  let lastError;
  for (let p = port; p < port + tries; p += 1) {
    const v4 = createServer(handle);
    try {
      await listenOnce(v4, p, "127.0.0.1");
    } catch (err) {
      lastError = err;
      if (err.code === "EADDRINUSE") continue;
      throw err;
    }
    const servers = [v4];
    const v6 = createServer(handle);
    try {
      await listenOnce(v6, p, "::1");
      servers.push(v6);
    } catch (err) {
      if (err.code === "EADDRINUSE") {
        await closeServer(v4);
        lastError = err;
        continue;
      }
      // No IPv6 loopback on this machine: 127.0.0.1 alone is fine.
    }
    return {
      port: p,
      url: `http://localhost:${p}/`,
      close: () => Promise.all(servers.map(closeServer)).then(() => undefined),
    };
  }
  const range = tries === 1 ? `port ${port}` : `ports ${port}-${port + tries - 1}`;
  throw new Error(`could not listen on ${range}: ${lastError?.message ?? "unknown error"}`);
}

async function main() {
  const strictPort = process.argv.includes("--strict-port");
  const port = Number.parseInt(process.env.PORT ?? "4173", 10);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    console.error(`Invalid PORT: ${process.env.PORT}`);
    process.exit(1);
  }
  let server;
  try {
    server = await startServer({ port, strictPort });
  } catch (err) {
    console.error(`serve: ${err.message}`);
    process.exit(1);
  }
  if (server.port !== port) console.log(`Port ${port} is in use; using ${server.port} instead.`);
  console.log(`\n  tabcode is running at ${server.url}\n`);
  console.log("  Press Ctrl+C to stop.\n");
  const stop = () => server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

const invokedDirectly =
  process.argv[1] !== undefined &&
  existsSync(process.argv[1]) &&
  import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
if (invokedDirectly) await main();
