import { useLayoutEffect, useRef } from "react";

/**
 * A text field that takes the keyboard when it appears, with the caret after its text (a layout effect: still in
 * the click's task, so one tap on a phone is enough). For the edit forms that replace what they edit.
 */
export function useFocusAtEnd<T extends HTMLTextAreaElement | HTMLInputElement>() {
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []);
  return ref;
}
