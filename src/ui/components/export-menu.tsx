import { useEffect, useRef, useState } from "react";
import { type ExportKind, exportOne } from "../../app/session-actions";
import { useServices } from "../hooks/services";
import { download } from "./workspace/workspace-io";

const ITEMS: { kind: ExportKind; label: string }[] = [
  { kind: "json", label: "JSON" },
  { kind: "json-files", label: "JSON with files" },
  { kind: "markdown", label: "Markdown" },
  { kind: "markdown-brief", label: "Markdown (conversation only)" },
  { kind: "html", label: "HTML" },
];

/**
 * The "Export" menu of a session: JSON (OpenCode's shape, optionally with the workspace), Markdown (with
 * reasoning, tool details and metadata, or the conversation only), HTML.
 */
export function ExportMenu({ sessionID, onError }: { sessionID: string; onError: (m: string) => void }) {
  const app = useServices();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const close = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);

  const run = async (kind: ExportKind) => {
    setOpen(false);
    try {
      const d = await exportOne(app, sessionID, kind);
      download(d.name, d.data, d.mime);
    } catch (e) {
      onError(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape closes the menu from anywhere inside it
    <div
      className="menu"
      ref={root}
      onKeyDown={(e) => {
        if (e.key === "Escape") setOpen(false);
        if (e.key === "ArrowDown" || e.key === "ArrowUp") {
          const items = [...(root.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
          const i = items.indexOf(document.activeElement as HTMLButtonElement);
          items[(i + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length]?.focus();
          e.preventDefault();
        }
      }}
    >
      <button type="button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        Export
      </button>
      {open && (
        <div role="menu" aria-label="Export">
          {ITEMS.map((it) => (
            <button key={it.kind} type="button" role="menuitem" onClick={() => void run(it.kind)}>
              {it.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
