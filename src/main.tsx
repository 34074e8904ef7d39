import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { bootstrap } from "./app/bootstrap";
import { registerServiceWorkerWhenQuiet } from "./app/service-worker";
import { whenIdle } from "./app/warm-up";
import { App } from "./ui/app";
import { installGlance } from "./ui/glance/keeper";
import { dismissGlance } from "./ui/glance/dismiss";
import { ServicesProvider } from "./ui/hooks/services";
import { Markdown } from "./ui/lazy-markdown";
import "./ui/styles.css";

function Fatal({ message }: { message: string }) {
  return (
    <main className="fatal" role="alert">
      <h1>tabcode cannot start</h1>
      <p>{message}</p>
      <p>tabcode keeps your sessions in this browser's storage (IndexedDB). Private windows and strict privacy settings can block it: open tabcode in a normal window, or allow site data for this page, then reload.</p>
    </main>
  );
}

const rootEl = document.getElementById("root");
// index.html's first script is taking the page to WebContainer's isolated page (src/app/isolation.ts): start nothing here.
const leaving = (globalThis as { __tabcodeLeaving?: boolean }).__tabcodeLeaving === true;
if (rootEl && !leaving) {
  const root = createRoot(rootEl);
  // Not needed for the first screen, but for the first message: fetched while the database opens.
  void Markdown.preload().catch(() => undefined);
  bootstrap()
    .then((r) => {
      if (r.ok) installGlance(window, () => [r.services.settings.get().apiKey.trim()], whenIdle);
      else dismissGlance(document);
      if ("serviceWorker" in navigator) {
        const base = import.meta.env.BASE_URL;
        const runs = r.ok ? r.services.sessions : undefined;
        const now = registerServiceWorkerWhenQuiet({
          idle: whenIdle,
          busy: () => (runs?.getStatuses().size ?? 0) > 0,
          subscribe: (l) => runs?.subscribe(l) ?? (() => undefined),
          register: () => void navigator.serviceWorker.register(`${base}sw.js`, { scope: base }).catch(() => undefined),
        });
        // Test seam: specs that need the app cached register it at once (the timing itself is unit-tested).
        (globalThis as { __tabcodeServiceWorker?: () => void }).__tabcodeServiceWorker = now;
      }
      root.render(
        <StrictMode>{r.ok ? <ServicesProvider services={r.services}><App /></ServicesProvider> : <Fatal message={r.error} />}</StrictMode>,
      );
    })
    .catch((e: unknown) => {
      dismissGlance(document);
      root.render(<Fatal message={e instanceof Error ? e.message : String(e)} />);
    });
}
