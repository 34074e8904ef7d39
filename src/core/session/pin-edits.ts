import { ascendingId } from "../ids";
import { pinText, removePin, setPin } from "../pins/pins";
import type { Store } from "../ports/store";
import type { Pin } from "../schema";

/** Stores a decision about a pin (accept, edit, dismiss a suggestion; edit the user's own). Bad text is refused in words. */
export async function savePin(store: Store, sessionID: string, pin: Pin): Promise<{ ok: true } | { ok: false; error: string }> {
  const t = pinText(pin.text);
  if (!t.ok) return t;
  await store.updateSession(sessionID, (s) => ({ ...s, pins: setPin(s.pins, { ...pin, text: t.text }) }));
  return { ok: true };
}

/** Adds the user's own pin (accepted), optionally tied to the message it came from. */
export async function addPin(store: Store, sessionID: string, input: { kind: Pin["kind"]; text: string; messageID?: string; now: number }): Promise<{ ok: true; pin: Pin } | { ok: false; error: string }> {
  const t = pinText(input.text);
  if (!t.ok) return t;
  const pin: Pin = { id: ascendingId("pin", input.now), kind: input.kind, text: t.text, state: "accepted", time: input.now, ...(input.messageID ? { messageID: input.messageID } : {}) };
  await store.updateSession(sessionID, (s) => {
    // One goal at a time: a new goal replaces the accepted one.
    const rest = input.kind === "goal" ? (s.pins ?? []).filter((p) => p.kind !== "goal" || p.id.startsWith("sug_")) : s.pins;
    return { ...s, pins: setPin(rest, pin) };
  });
  return { ok: true, pin };
}

/** Removes a pin (a suggestion is dismissed, the user's own deleted). */
export async function deletePin(store: Store, sessionID: string, pin: Pin): Promise<void> {
  await store.updateSession(sessionID, (s) => ({ ...s, pins: removePin(s.pins, pin) }));
}
