import { type RefObject, useEffect, useRef } from "react";
import { returnFocus } from "../return-focus";

/**
 * A native <dialog> opened as a modal when it mounts (focus trap and Esc come with it). When it goes
 * away, focus goes back to what had it before (the button that opened it): the dialogs close by
 * unmounting, which drops focus to <body> before the browser's own close could restore it.
 */
export function useModal(): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const d = ref.current;
    const active = document.activeElement;
    if (!opener.current && active instanceof HTMLElement && active !== document.body && !d?.contains(active)) opener.current = active;
    if (d && !d.open) d.showModal();
    return () => returnFocus(opener.current, d);
  }, []);
  return ref;
}
