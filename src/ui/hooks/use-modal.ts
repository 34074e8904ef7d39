import { type RefObject, useEffect, useRef } from "react";

/** A native <dialog> opened as a modal when it mounts (focus trap and Esc come with it). */
export function useModal(): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return ref;
}
