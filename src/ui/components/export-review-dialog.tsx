import { useState } from "react";
import type { Finding } from "../../core/export";
import { useModal } from "../hooks/use-modal";
import { RedactionReview } from "./redaction-review";

/**
 * Before an export file is written: the secrets found in the session (the
 * share dialog's review), all checked; the export replaces the checked ones.
 */
export function ExportReviewDialog({ label, findings, onExport, onClose, target = "the file" }: { label: string; findings: Finding[]; onExport: (remove: Finding[]) => void; onClose: () => void; target?: string }) {
  const ref = useModal();
  const [remove, setRemove] = useState<Set<string>>(() => new Set(findings.map((f) => f.value)));
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="export-review-title" onClose={onClose} onCancel={onClose}>
      <h2 id="export-review-title">Review before exporting</h2>
      <RedactionReview findings={findings} remove={remove} onChange={setRemove} target={target} />
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={() => onExport(findings.filter((f) => remove.has(f.value)))}>
          Export {label}
        </button>
      </div>
    </dialog>
  );
}
