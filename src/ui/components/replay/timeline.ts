import type { MessageWithParts } from "../../../core/schema";

/** One replay step: the part that appears (message index, part index within it). */
export interface Frame {
  message: number;
  part: number;
}

const SILENT = new Set(["step-start", "snapshot"]);

/** Every visible part of a conversation, in order: what appears, one step at a time. */
export function timeline(messages: MessageWithParts[]): Frame[] {
  const frames: Frame[] = [];
  messages.forEach((m, i) => {
    const visible = m.parts.map((p, j) => ({ p, j })).filter(({ p }) => !SILENT.has(p.type));
    if (visible.length === 0) frames.push({ message: i, part: m.parts.length - 1 });
    for (const { j } of visible) frames.push({ message: i, part: j });
  });
  return frames;
}

/** The conversation as it stood after `count` frames (0 = nothing yet). */
export function revealed(messages: MessageWithParts[], frames: Frame[], count: number): MessageWithParts[] {
  const last = frames[count - 1];
  if (!last) return [];
  const out: MessageWithParts[] = [];
  for (let i = 0; i < last.message; i++) {
    const m = messages[i];
    if (m) out.push(m);
  }
  const current = messages[last.message];
  if (current) out.push({ info: current.info, parts: current.parts.slice(0, last.part + 1) });
  return out;
}

/** What the model had been sent when the current frame's message was produced: everything before it. */
export function seenByModel(messages: MessageWithParts[], frames: Frame[], count: number): MessageWithParts[] {
  const last = frames[count - 1];
  if (!last) return [];
  const current = messages[last.message];
  const upTo = current?.info.role === "assistant" ? last.message : last.message + 1;
  return messages.slice(0, upTo);
}
