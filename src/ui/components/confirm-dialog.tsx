import { useId } from "react";
import { useModal } from "../hooks/use-modal";

/**
 * A modal yes/no question on the native <dialog> (focus trap and Esc for free). `alert`, when given (even
 * empty, so the region is there before its text), is a line under the question: why the answer did not work.
 * The confirming button takes single clicks and the keyboard only (see below).
 */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  alert,
  onConfirm,
  onCancel,
}: {
  title: string;
  body: string;
  confirmLabel: string;
  alert?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useModal();
  const id = useId();
  return (
    <dialog ref={ref} className="dialog confirm" aria-labelledby={`${id}-title`} onCancel={onCancel} onClose={onCancel}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p>{body}</p>
      {alert !== undefined && (
        <p role="alert" className="error-text">
          {alert}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        {/* The second click of a double-click is never an answer: it landed here because this dialog opened
            under the pointer after the first (a double-click on the button that opened it). */}
        <button type="button" className="danger" onClick={(e) => e.detail < 2 && onConfirm()}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
