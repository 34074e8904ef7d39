import { ascendingId } from "../ids";
import { effectivePins, pinText, removePin, samePin, setPin } from "../pins/pins";
import type { Store } from "../ports/store";
import type { MessageWithParts, Pin } from "../schema";

/** Stores a decision about a pin (accept, edit, dismiss a suggestion; edit the user's own). Bad text is refused in words. */
export async function savePin(store: Store, sessionID: string, pin: Pin): Promise<{ ok: true } | { ok: false; error: string }> {
  const t = pinText(pin.text);
  if (!t.ok) return t;
  await store.updateSession(sessionID, (s) => ({ ...s, pins: setPin(s.pins, { ...pin, text: t.text }) }));
  return { ok: true };
}

/**
 * Adds the user's own pin (accepted), optionally tied to the message it came from. A pin in force with the same
 * words (whitespace and case aside; `history` gives the suggestions) is not added again: `already` says which it
 * was, and a suggestion is accepted instead, since the user has now pinned it themselves.
 */
export async function addPin(
  store: Store,
  sessionID: string,
  input: { kind: Pin["kind"]; text: string; messageID?: string; now: number; history?: readonly MessageWithParts[] },
): Promise<{ ok: true; pin: Pin; already?: "pinned" | "suggested" } | { ok: false; error: string }> {
  const t = pinText(input.text);
  if (!t.ok) return t;
  const fresh: Pin = { id: ascendingId("pin", input.now), kind: input.kind, text: t.text, state: "accepted", time: input.now, ...(input.messageID ? { messageID: input.messageID } : {}) };
  let result: { ok: true; pin: Pin; already?: "pinned" | "suggested" } = { ok: true, pin: fresh };
  await store.updateSession(sessionID, (s) => {
    const same = samePin(effectivePins(s.pins, input.history ?? []), input.kind, t.text);
    if (same?.state === "suggested") {
      result = { ok: true, pin: { ...same, state: "accepted" }, already: "suggested" };
      return { ...s, pins: setPin(s.pins, result.pin) };
    }
    if (same) {
      result = { ok: true, pin: same, already: "pinned" };
      return s;
    }
    result = { ok: true, pin: fresh };
    // One goal at a time: a new goal replaces the accepted one.
    const rest = input.kind === "goal" ? (s.pins ?? []).filter((p) => p.kind !== "goal" || p.id.startsWith("sug_")) : s.pins;
    return { ...s, pins: setPin(rest, fresh) };
  });
  return result;
}

/** The notice for a pin that was in force already. */
export function alreadyPinnedText(pin: Pin, already: "pinned" | "suggested"): string {
  const words = pin.text.length > 80 ? `${pin.text.slice(0, 79)}…` : pin.text;
  return already === "pinned" ? `“${words}” is already pinned.` : `“${words}” was already pinned as a suggestion from your message; it is now accepted.`;
}

/** Removes a pin (a suggestion is dismissed, the user's own deleted). */
export async function deletePin(store: Store, sessionID: string, pin: Pin): Promise<void> {
  await store.updateSession(sessionID, (s) => ({ ...s, pins: removePin(s.pins, pin) }));
}
