import { type ReactNode, useState } from "react";
import { type ExportKind, exportOne, secretsIn } from "../../app/session-actions";
import type { Finding } from "../../core/export";
import { useServices } from "../hooks/services";
import { ExportReviewDialog } from "../lazy";
import { MenuButton, type MenuItem } from "./menu-button";
import { download } from "./workspace/workspace-io";

const ITEMS: { kind: ExportKind; label: string }[] = [
  { kind: "json", label: "JSON" },
  { kind: "json-files", label: "JSON with files" },
  { kind: "markdown", label: "Markdown" },
  { kind: "markdown-brief", label: "Markdown (conversation only)" },
  { kind: "html", label: "HTML" },
];

/**
 * The export actions of a session, as menu items (`prefix` names them in a shared menu), and the
 * review to render: a session in which the redaction pass finds secrets opens the review first
 * (the same one Share shows); without findings the file is written at once.
 */
export function useExportItems(sessionID: string, onError: (m: string) => void, prefix = ""): { items: MenuItem[]; review: ReactNode } {
  const app = useServices();
  const [pending, setPending] = useState<{ kind: ExportKind; label: string; findings: Finding[] } | null>(null);
  const write = async (kind: ExportKind, remove: readonly Finding[]) => {
    try {
      const d = await exportOne(app, sessionID, kind, remove);
      download(d.name, d.data, d.mime);
    } catch (e) {
      onError(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const run = async (kind: ExportKind, label: string) => {
    let findings: Finding[];
    try {
      findings = await secretsIn(app, sessionID, { files: kind === "json-files" });
    } catch (e) {
      onError(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (findings.length === 0) await write(kind, []);
    else setPending({ kind, label, findings });
  };
  const review = pending && (
    <ExportReviewDialog
      label={pending.label}
      findings={pending.findings}
      onClose={() => setPending(null)}
      onExport={(remove) => {
        setPending(null);
        void write(pending.kind, remove);
      }}
    />
  );
  return { items: ITEMS.map((it) => ({ label: `${prefix}${it.label}`, run: () => void run(it.kind, it.label) })), review };
}

/**
 * The "Export" menu of a session: JSON (OpenCode's shape, optionally with the workspace), Markdown (with
 * reasoning, tool details and metadata, or the conversation only), HTML.
 */
export function ExportMenu({ sessionID, onError }: { sessionID: string; onError: (m: string) => void }) {
  const { items, review } = useExportItems(sessionID, onError);
  return (
    <>
      <MenuButton label="Export" items={items} />
      {review}
    </>
  );
}
