import type { Attachment } from "./attachments";

/** The attachments of the next prompt: image thumbnails (data: URLs only) and file chips, each removable. */
export function AttachmentChips({ items, onRemove, notice }: { items: Attachment[]; onRemove: (key: string) => void; notice?: string }) {
  if (items.length === 0) return null;
  return (
    <div className="attachments">
      <ul className="attachment-list" aria-label="Attachments">
        {items.map((a) => {
          const name = a.path ?? a.filename;
          return (
            <li key={a.key} className={`attachment-chip ${a.kind}`} title={name}>
              {a.kind === "image" && a.url.startsWith("data:image/") ? <img src={a.url} alt={name} /> : <span className="attachment-at" aria-hidden="true">@</span>}
              <span className="attachment-name">{name}</span>
              <button type="button" className="attachment-remove" aria-label={`Remove ${name}`} onClick={() => onRemove(a.key)}>
                ×
              </button>
            </li>
          );
        })}
      </ul>
      {notice && (
        <p className="attachment-notice" role="note">
          {notice}
        </p>
      )}
    </div>
  );
}
