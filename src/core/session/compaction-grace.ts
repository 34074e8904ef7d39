import type { CompactionPreview } from "../compaction/preview";
import type { Clock } from "../ports/clock";

/** An automatic summary about to start, shown to the user with Cancel / Summarise now. */
export interface PendingSummary {
  preview: CompactionPreview;
  /** When it starts by itself (ms since the epoch). */
  until: number;
}

export type SummaryChoice = "now" | "cancel";

/**
 * The short grace before an automatic summary: the loop waits, the UI shows
 * the preview, and the user may start it now or cancel it (the loop then
 * sends the request as it is and asks no more automatic summaries for that
 * prompt). Stopping the run cancels it too.
 */
export class CompactionGrace {
  private pending = new Map<string, { info: PendingSummary; decide: (c: SummaryChoice) => void }>();
  private snapshot: ReadonlyMap<string, PendingSummary> = new Map();

  constructor(
    private readonly clock: Clock,
    private readonly notify: () => void,
  ) {}

  get = (): ReadonlyMap<string, PendingSummary> => this.snapshot;

  private publish(): void {
    this.snapshot = new Map([...this.pending].map(([id, p]) => [id, p.info]));
    this.notify();
  }

  /** Waits `ms` (or for the user's choice): `go` to summarise, `cancel` to send without it. */
  async wait(sessionID: string, preview: CompactionPreview, ms: number, signal: AbortSignal): Promise<"go" | "cancel"> {
    if (ms <= 0) return "go";
    const timer = new AbortController();
    const onAbort = () => timer.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await new Promise<"go" | "cancel">((resolve) => {
        this.pending.set(sessionID, { info: { preview, until: this.clock.now() + ms }, decide: (c) => resolve(c === "now" ? "go" : "cancel") });
        this.publish();
        this.clock.sleep(ms, timer.signal).then(
          () => resolve("go"),
          () => resolve(signal.aborted ? "cancel" : "go"),
        );
      });
    } finally {
      timer.abort();
      signal.removeEventListener("abort", onAbort);
      this.pending.delete(sessionID);
      this.publish();
    }
  }

  /** The user's answer to the pending summary of a session (ignored when there is none). */
  choose(sessionID: string, choice: SummaryChoice): void {
    this.pending.get(sessionID)?.decide(choice);
  }
}
