import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { bootstrap } from "./app/bootstrap";
import { App } from "./ui/app";
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
if (rootEl) {
  const root = createRoot(rootEl);
  // Not needed for the first screen, but for the first message: fetched while the database opens.
  void Markdown.preload().catch(() => undefined);
  bootstrap()
    .then((r) => {
      root.render(
        <StrictMode>{r.ok ? <ServicesProvider services={r.services}><App /></ServicesProvider> : <Fatal message={r.error} />}</StrictMode>,
      );
    })
    .catch((e: unknown) => root.render(<Fatal message={e instanceof Error ? e.message : String(e)} />));
}
