import type { CompactionPreview } from "../../core/compaction/preview";
import { useModal } from "../hooks/use-modal";
import { previewText } from "./summary-preview";

/** Compact now / Summarise up to here: what the summary would fold, before it runs. */
export function SummaryPreviewDialog({ preview, upTo, onConfirm, onCancel }: { preview: CompactionPreview; upTo: boolean; onConfirm: () => void; onCancel: () => void }) {
  const ref = useModal();
  return (
    <dialog ref={ref} className="dialog confirm" aria-labelledby="summary-preview-title" onCancel={onCancel} onClose={onCancel}>
      <h2 id="summary-preview-title">{upTo ? "Summarise up to here?" : "Summarise the conversation?"}</h2>
      <p>About to summarise {previewText(preview)}.</p>
      <p className="dialog-note">
        {upTo && preview.tailStartID ? "The later turns stay as they are. " : ""}The stored conversation is not changed: “undo” on the divider brings it back exactly (what you send after the summary would go with it; it asks first), and your pins are kept.
      </p>
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={onConfirm}>
          Summarise
        </button>
      </div>
    </dialog>
  );
}

