import type { NamedErrorData, Part } from "./schema";

/** Status of a session's run, as the UI shows it. */
export type SessionStatus =
  | { type: "idle" }
  | { type: "busy" }
  | { type: "retry"; attempt: number; message: string; next: number }
  /**
   * A step waits for the person's command in the terminal to end before it takes its starting snapshot (so the
   * command's changes are the person's): said, since nothing else moves meanwhile. `command` is the line they ran.
   */
  | { type: "awaiting-command"; command: string };

/** Events the core publishes; the UI listens, nothing in the core depends on listeners. */
export type BusEvent =
  | { type: "session.status"; sessionID: string; status: SessionStatus }
  /** The full current text of a streaming part (ahead of the batched store writes). */
  | { type: "part.live"; part: Part }
  | { type: "session.error"; sessionID: string; error: NamedErrorData }
  /** Something the user should know that is not an error (e.g. the session runs in another tab). */
  | { type: "session.notice"; sessionID: string; message: string }
  | { type: "session.title"; sessionID: string; title: string };

type Listener = (event: BusEvent) => void;

/** A tiny synchronous typed event bus. */
export class Bus {
  private listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  publish(event: BusEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (e) {
        console.error("bus listener failed", e);
      }
    }
  }
}
