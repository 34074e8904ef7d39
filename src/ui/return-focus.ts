/**
 * Gives focus back to `opener` (what had it before a dialog or drawer opened) when `box` goes away and
 * focus went nowhere with it: on <body>, or still inside the closing box. Focus the box sent somewhere
 * on purpose stays there.
 */
export function returnFocus(opener: HTMLElement | null | undefined, box: Element | null | undefined): void {
  const now = document.activeElement;
  const lost = !now || now === document.body || !!box?.contains(now);
  if (lost && opener?.isConnected) opener.focus({ preventScroll: true });
}

/** Puts the keyboard in the message box (after the control it was on went away). */
export function focusComposer(): void {
  document.getElementById("composer-input")?.focus({ preventScroll: true });
}
