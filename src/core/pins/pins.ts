/**
 * Pinned context: the session's goal and the user's constraints, sent in
 * every request's fixed prefix (the system prompt), so no prune or summary
 * can drop them. Suggestions come from the user's own messages (rule-like
 * sentences: "never touch config/", "answer in English", budgets) and are in
 * force until the user dismisses them; stored `Pin` records (session.pins)
 * accept, edit or dismiss a suggestion, or add the user's own.
 *
 * Everything here is a pure function of the stored conversation, so a
 * suggestion survives compaction by construction: it is derived from the
 * stored messages, which compaction never changes.
 */
import type { MessageWithParts, Pin } from "../schema";

/** Words that make a sentence a rule the user set. */
const RULE = /\b(never|always|don't|dont|do not|must|mustn't|should not|shouldn't|only|avoid|make sure|ensure|without|no more than|at most|at least|keep it|prefer|answer in|respond in|reply in|write in|instead of|budget|limit|under no circumstances|not allowed|forbidden)\b/i;
/** A sentence that opens with a rule word (after an optional "please"): a rule, whatever follows. */
const OPENS_WITH_RULE = new RegExp(`^(?:please,?\\s+)?${RULE.source.replace(/^\\b/, "")}`, "i");
/** The most suggestions taken from one message, and the longest sentence taken. */
const PER_MESSAGE = 5;
const MAX_SENTENCE = 300;
const MAX_GOAL = 240;

/** A user message's own words: its non-synthetic text parts. */
export function userText(m: MessageWithParts): string {
  if (m.info.role !== "user") return "";
  return m.parts
    .filter((p) => p.type === "text" && !p.synthetic)
    .map((p) => (p.type === "text" ? p.text : ""))
    .join("\n")
    .trim();
}

/** Sentences of a text (lines and sentence ends), code blocks left out. */
export function sentences(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?(```|$)/g, " ");
  return prose
    .split(/\n+|(?<=[.!;])\s+/)
    .map((s) => s.replace(/^[-*>\d.)\s]+/, "").trim())
    .filter((s) => s.length >= 6);
}

/** Rule-like sentences of one message, in order (questions are not rules). */
export function constraintsIn(text: string): string[] {
  const out: string[] = [];
  for (const s of sentences(text)) {
    if (out.length >= PER_MESSAGE) break;
    if (s.endsWith("?") || s.length > MAX_SENTENCE || !RULE.test(s)) continue;
    out.push(s);
  }
  return out;
}

/** The id of the n-th suggestion of a message (stable, so a stored record can override it). */
export function suggestionID(messageID: string, n: number): string {
  return `sug_${messageID}_${n}`;
}

/**
 * Suggested pins from the user's messages in `history` (the branch as stored,
 * not the compacted view): every rule-like sentence as a constraint, and the
 * first message's first sentence as the goal, unless it opens with a rule
 * ("Never touch config/.": a constraint, and the goal is the next sentence
 * that is no rule). A first sentence with a rule word further in ("Please fix
 * the import so that I do not lose data.") is the task: the goal, not also a constraint.
 */
export function suggestPins(history: readonly MessageWithParts[]): Pin[] {
  const out: Pin[] = [];
  let goal = false;
  for (const m of history) {
    if (m.info.role !== "user") continue;
    const words = ruleWordsOf(m);
    if (!words) continue;
    const { rules, first, task } = words;
    let taken: string | undefined;
    if (!goal) {
      goal = true;
      // The task: the first sentence, unless it opens with a rule; then the first sentence that is no rule.
      const sentence = first !== undefined && !OPENS_WITH_RULE.test(first) ? first : task;
      if (sentence) {
        if (sentence === first) taken = first;
        out.push({ id: suggestionID(m.info.id, 0), kind: "goal", text: sentence.replace(/\s*[;,:]+$/, "").slice(0, MAX_GOAL), state: "suggested", messageID: m.info.id, time: m.info.time.created });
      }
    }
    rules.forEach((r, i) => {
      // The goal's sentence is pinned already (the goal is sent with every request too).
      if (r === taken) return;
      out.push({ id: suggestionID(m.info.id, i + 1), kind: "constraint", text: r, state: "suggested", messageID: m.info.id, time: m.info.time.created });
    });
  }
  return out;
}

/**
 * A user message's rules and first sentence, worked out once per message and text: kept by message id with
 * the text they came from, so a copy of the same message read again from the store (each step of the loop
 * reads the branch afresh; a page load reads it once more) is not parsed again. An edited text is parsed anew.
 */
type Words = { rules: string[]; first: string | undefined; task: string | undefined } | null;
const wordsMemo = new Map<string, { text: string; words: Words }>();
/** Past this many messages the memo starts over (a few sessions' worth; a parse is microseconds). */
const WORDS_MEMO_MAX = 20_000;
export function ruleWordsOf(m: MessageWithParts): Words {
  const text = userText(m);
  const hit = wordsMemo.get(m.info.id);
  if (hit && hit.text === text) return hit.words;
  const all = text ? sentences(text) : [];
  const rules = text ? constraintsIn(text) : [];
  const words: Words = text ? { rules, first: all[0], task: all.find((s) => !rules.includes(s) && !s.endsWith("?")) ?? undefined } : null;
  if (wordsMemo.size >= WORDS_MEMO_MAX) wordsMemo.clear();
  wordsMemo.set(m.info.id, { text, words });
  return words;
}

/**
 * The pins of a session: stored records override suggestions with the same
 * id; the user's own come after. Dismissed ones are kept (the panel shows
 * them) but never sent. Only one goal is kept: the newest accepted, else the newest suggested.
 */
export function effectivePins(stored: Pin[] | undefined, history: readonly MessageWithParts[]): Pin[] {
  const own = new Map((stored ?? []).map((p) => [p.id, p]));
  const out: Pin[] = [];
  for (const s of suggestPins(history)) {
    out.push(own.get(s.id) ?? s);
    own.delete(s.id);
  }
  out.push(...own.values());
  const goals = out.filter((p) => p.kind === "goal" && p.state !== "dismissed");
  // The newest accepted goal wins (the user's own come last), else the newest suggestion.
  const keep = goals.findLast((g) => g.state === "accepted") ?? goals[goals.length - 1];
  return out.filter((p) => p.kind !== "goal" || p.state === "dismissed" || p === keep);
}

/** The pins in force (not dismissed). */
export function activePins(pins: Pin[]): Pin[] {
  return pins.filter((p) => p.state !== "dismissed");
}

/** The system-prompt section for the pins in force ("" when none). Byte-stable for the same pins. */
export function pinnedBlock(pins: Pin[]): string {
  const live = activePins(pins);
  if (live.length === 0) return "";
  const goal = live.find((p) => p.kind === "goal");
  const rules = live.filter((p) => p.kind === "constraint");
  // Said as what they are: a suggestion is the user's own words, taken from their messages, not a pin they set.
  const from = (p: Pin, words: string) => (p.state === "suggested" ? ` (${words}; not confirmed by the user)` : "");
  const lines = ["# Pinned context (kept through every compaction; follow these even if the conversation below no longer shows them)"];
  if (goal) lines.push(`Goal: ${goal.text}${from(goal, "taken from the user's first message")}`);
  if (rules.length) lines.push("Constraints and preferences:", ...rules.map((r) => `- ${r.text}${from(r, "the user's own words")}`));
  return lines.join("\n");
}

/**
 * Stores a user decision about a pin (accept, edit, dismiss, add): returns the new `session.pins`. A pin
 * already stored keeps its place (an edited constraint stays where it was in the panel); a new one goes last.
 */
export function setPin(stored: Pin[] | undefined, pin: Pin): Pin[] {
  const list = stored ?? [];
  return list.some((p) => p.id === pin.id) ? list.map((p) => (p.id === pin.id ? pin : p)) : [...list, pin];
}

/** A pin's words for comparison: whitespace runs as one space, trimmed, case folded. */
function pinKey(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * The pin in force that a new pin of `kind` would repeat (same words, whitespace and case aside), if any.
 * A constraint repeats any pin (the goal is sent with every request too); a goal repeats the goal only.
 */
export function samePin(pins: Pin[], kind: Pin["kind"], text: string): Pin | undefined {
  const key = pinKey(text);
  return activePins(pins).find((p) => (kind === "constraint" || p.kind === "goal") && pinKey(p.text) === key);
}

/** The longest pin text (the schema's limit). */
export const MAX_PIN = 2_000;

/** Checks a pin's text from the user: trimmed, not empty, within the limit. Errors in the user's words. */
export function pinText(text: string): { ok: true; text: string } | { ok: false; error: string } {
  const t = text.replace(/\s+/g, " ").trim();
  if (!t) return { ok: false, error: "A pin needs some text." };
  if (t.length > MAX_PIN) return { ok: false, error: `A pin can hold at most ${MAX_PIN.toLocaleString("en")} characters (this one has ${t.length.toLocaleString("en")}).` };
  return { ok: true, text: t };
}

/**
 * Removes a pin: a suggestion is kept as dismissed (so it is not suggested
 * again); the user's own is deleted. Returns the new `session.pins`.
 */
export function removePin(stored: Pin[] | undefined, pin: Pin): Pin[] {
  if (pin.id.startsWith("sug_")) return setPin(stored, { ...pin, state: "dismissed" });
  return (stored ?? []).filter((p) => p.id !== pin.id);
}
