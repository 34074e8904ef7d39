import { type RefObject, useEffect, useRef } from "react";
import { returnFocus } from "../return-focus";

/**
 * A native <dialog> opened as a modal when it mounts (focus trap and Esc come with it). When it goes
 * away, focus goes back to what had it before (the button that opened it): the dialogs close by
 * unmounting, which drops focus to <body> before the browser's own close could restore it.
 * `startAtTop`: a long dialog whose only control is at its end (the shortcuts sheet) starts on the dialog
 * itself, scrolled to its top; the browser would focus that control and open the dialog scrolled to the end.
 */
export function useModal({ startAtTop = false }: { startAtTop?: boolean } = {}): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read once, when the dialog opens
  useEffect(() => {
    const d = ref.current;
    const active = document.activeElement;
    if (!opener.current && active instanceof HTMLElement && active !== document.body && !d?.contains(active)) opener.current = active;
    if (d && !d.open) d.showModal();
    if (d && startAtTop) {
      d.tabIndex = -1;
      d.focus({ preventScroll: true });
      d.scrollTop = 0;
    }
    return () => returnFocus(opener.current, d);
  }, []);
  return ref;
}
