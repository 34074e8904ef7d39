import { useEffect, useState } from "react";
import type { SessionStatus } from "../../core/bus";
import type { MessageWithParts } from "../../core/schema";
import { useAppEvent } from "../app-events";

interface Tip {
  id: string;
  title: string;
  text: string;
  /** Whether the moment for this tip has come. */
  when: (m: MessageWithParts[], status: SessionStatus) => boolean;
}

const parts = (m: MessageWithParts[]) => m.flatMap((x) => x.parts);

/** Short callouts that point at the mechanisms as they happen. */
export const TIPS: Tip[] = [
  { id: "parts", title: "Parts", text: "An answer is a message made of parts: reasoning (collapsed), text, tool calls and step markers. Each is stored in IndexedDB as it streams.", when: (m) => m.some((x) => x.info.role === "assistant" && x.parts.length > 1) },
  { id: "tools", title: "Tool states", text: "A tool call goes pending (arguments streaming) → running → completed or failed. Click a tool card to see its input and output.", when: (m) => parts(m).some((p) => p.type === "tool") },
  { id: "meter", title: "Context meter", text: "Every step records its tokens and cost (the small line under it). The meter in the header shows how full the model's context window is.", when: (m) => parts(m).filter((p) => p.type === "step-finish").length >= 2 },
  { id: "xray", title: "Context X-ray", text: "Open “Context X-ray” in the header to see exactly what the model gets on the next call, section by section.", when: (m) => parts(m).filter((p) => p.type === "step-finish").length >= 4 },
  { id: "compaction", title: "Compaction boundary", text: "The window filled up: tabcode asked the model for a summary (“What did we do so far?”). From now on the model sees the summary instead of the older messages — the X-ray shows the boundary.", when: (m) => m.some((x) => x.info.role === "assistant" && x.info.summary === true) },
  { id: "fork", title: "Fork, revert, replay", text: "Hover a message to fork the session from it (files included) or revert its turn. “Replay” steps through the whole session — handy in class.", when: (m, s) => s.type === "idle" && m.length > 2 },
];

const STORAGE_KEY = "tabcode.tour.dismissed";

/** Forgets what was dismissed: the next demo session starts the tour from its first step. */
export function resetTour(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage unavailable: nothing was remembered.
  }
}

function dismissedSet(): Set<string> {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return new Set(raw ? (JSON.parse(raw) as string[]) : []);
  } catch {
    return new Set();
  }
}

/** The guided tour of a demo session: one callout at a time, each dismissible, the whole tour too. */
export function Tour({ messages, status }: { messages: MessageWithParts[]; status: SessionStatus }) {
  const [dismissed, setDismissed] = useState<Set<string>>(dismissedSet);
  useAppEvent("tour-restart", () => setDismissed(new Set()));
  // In order: the first step whose moment has come and that was not dismissed yet.
  const index = TIPS.findIndex((t) => !dismissed.has(t.id) && t.when(messages, status));
  const tip = TIPS[index];
  useEffect(() => {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify([...dismissed]));
    } catch {
      // Storage may be unavailable; the tour then just forgets.
    }
  }, [dismissed]);
  if (!tip || dismissed.has("all")) return null;
  return (
    <aside className="tour" aria-label="Guided tour" aria-live="polite">
      <strong>{tip.title}</strong> <span className="tour-step">· step {index + 1} of {TIPS.length}</span>
      <p>{tip.text}</p>
      <div className="tour-actions">
        <button type="button" className="link" onClick={() => setDismissed(new Set([...dismissed, "all"]))}>
          End tour
        </button>
        <button type="button" onClick={() => setDismissed(new Set([...dismissed, tip.id]))}>
          Got it
        </button>
      </div>
    </aside>
  );
}
