import { type ExportKind, exportOne } from "../../app/session-actions";
import { useServices } from "../hooks/services";
import { MenuButton, type MenuItem } from "./menu-button";
import { download } from "./workspace/workspace-io";

const ITEMS: { kind: ExportKind; label: string }[] = [
  { kind: "json", label: "JSON" },
  { kind: "json-files", label: "JSON with files" },
  { kind: "markdown", label: "Markdown" },
  { kind: "markdown-brief", label: "Markdown (conversation only)" },
  { kind: "html", label: "HTML" },
];

/** The export actions of a session, as menu items (`prefix` names them in a shared menu). */
export function useExportItems(sessionID: string, onError: (m: string) => void, prefix = ""): MenuItem[] {
  const app = useServices();
  const run = async (kind: ExportKind) => {
    try {
      const d = await exportOne(app, sessionID, kind);
      download(d.name, d.data, d.mime);
    } catch (e) {
      onError(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return ITEMS.map((it) => ({ label: `${prefix}${it.label}`, run: () => void run(it.kind) }));
}

/**
 * The "Export" menu of a session: JSON (OpenCode's shape, optionally with the workspace), Markdown (with
 * reasoning, tool details and metadata, or the conversation only), HTML.
 */
export function ExportMenu({ sessionID, onError }: { sessionID: string; onError: (m: string) => void }) {
  return <MenuButton label="Export" items={useExportItems(sessionID, onError)} />;
}
