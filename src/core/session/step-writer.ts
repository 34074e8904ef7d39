import type { Bus } from "../bus";
import { ascendingId } from "../ids";
import type { Clock } from "../ports/clock";
import type { Store } from "../ports/store";
import { addMessage } from "./add-message";
import type { AssistantMessage, Part, ReasoningPart, TextPart, ToolPart } from "../schema";

/**
 * Keeps the in-memory parts of one assistant message while it streams and
 * writes them through the store: text deltas through the batched writer, state
 * changes as upserts. Publishes live text on the bus for the UI.
 */
export class StepWriter {
  readonly texts = new Map<string, TextPart | ReasoningPart>();
  readonly tools = new Map<string, ToolPart>();
  /** Raw streamed tool arguments by call id. */
  readonly rawInput = new Map<string, string>();
  /** Order in which parts were created in this message (for doom-loop checks). */
  readonly order: Part[] = [];

  constructor(
    private readonly store: Store,
    private readonly bus: Bus,
    private readonly clock: Clock,
    readonly message: AssistantMessage,
  ) {}

  private base() {
    return { id: ascendingId("prt"), sessionID: this.message.sessionID, messageID: this.message.id };
  }

  /** Stores the message itself with its first part (in one transaction where the store can), and returns the part. */
  async begin<P extends Part>(part: Omit<P, "id" | "sessionID" | "messageID">): Promise<P> {
    const full = { ...this.base(), ...part } as P;
    this.order.push(full);
    await addMessage(this.store, this.message, [full]);
    return full;
  }

  async add<P extends Part>(part: Omit<P, "id" | "sessionID" | "messageID">): Promise<P> {
    const full = { ...this.base(), ...part } as P;
    this.order.push(full);
    await this.store.upsertPart(full);
    return full;
  }

  async startText(streamId: string, kind: "text" | "reasoning"): Promise<void> {
    const now = this.clock.now();
    const part =
      kind === "text"
        ? await this.add<TextPart>({ type: "text", text: "", time: { start: now } })
        : await this.add<ReasoningPart>({ type: "reasoning", text: "", time: { start: now } });
    this.texts.set(`${kind}:${streamId}`, part);
  }

  async delta(streamId: string, kind: "text" | "reasoning", delta: string): Promise<void> {
    const key = `${kind}:${streamId}`;
    if (!this.texts.has(key)) await this.startText(streamId, kind);
    const part = this.texts.get(key);
    if (!part) return;
    part.text += delta;
    this.store.appendDelta({ sessionID: part.sessionID, messageID: part.messageID, partID: part.id, field: "text", delta });
    this.bus.publish({ type: "part.live", part });
  }

  async endText(streamId: string, kind: "text" | "reasoning", metadata?: Record<string, unknown>): Promise<void> {
    const key = `${kind}:${streamId}`;
    const part = this.texts.get(key);
    if (!part) return;
    this.texts.delete(key);
    part.time = { start: part.time?.start ?? this.clock.now(), end: this.clock.now() };
    if (metadata) part.metadata = metadata;
    await this.store.upsertPart(part);
    this.bus.publish({ type: "part.live", part });
  }

  /** Closes text parts left open by an error or an abort. */
  async closeOpenTexts(): Promise<void> {
    for (const key of [...this.texts.keys()]) {
      const [kind, id] = key.split(":", 2) as ["text" | "reasoning", string];
      await this.endText(id, kind);
    }
  }

  async putTool(part: ToolPart): Promise<void> {
    this.tools.set(part.callID, part);
    await this.store.upsertPart(part);
    this.bus.publish({ type: "part.live", part });
  }

  /** Live tool updates (streamed output) go to the bus at once and to the store at most every 250 ms. */
  private pendingToolWrites = new Map<string, ReturnType<typeof setTimeout>>();
  liveTool(part: ToolPart): void {
    this.bus.publish({ type: "part.live", part: { ...part } });
    if (this.pendingToolWrites.has(part.callID)) return;
    const t = setTimeout(() => {
      this.pendingToolWrites.delete(part.callID);
      const current = this.tools.get(part.callID);
      if (current && current.state.status === "running") void this.store.upsertPart(current).catch(() => undefined);
    }, 250);
    this.pendingToolWrites.set(part.callID, t);
  }

  cancelToolWrites(): void {
    for (const t of this.pendingToolWrites.values()) clearTimeout(t);
    this.pendingToolWrites.clear();
  }
}
