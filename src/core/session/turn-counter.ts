import { MAX_AUTO_COMPACTIONS_PER_PROMPT } from "./context-guard";

/** Steps per prompt (max steps) and automatic summaries per prompt a person sent. */
export class TurnCounter {
  private steps = 0;
  private stepsFor: string | undefined;
  private promptID: string | undefined;
  private summaries = 0;
  lastStep = false;

  constructor(private readonly maxSteps: number) {}

  /** Called with the newest prompt a person sent and the newest user message (replays and continues included). */
  look(promptID: string | undefined, userID: string): void {
    if (promptID !== this.promptID) {
      this.promptID = promptID;
      this.summaries = 0;
    }
    if (userID !== this.stepsFor) {
      this.stepsFor = userID;
      this.steps = 0;
    }
  }

  get summariesLeft(): number {
    return MAX_AUTO_COMPACTIONS_PER_PROMPT - this.summaries;
  }

  /** The user cancelled an automatic summary: no more for this prompt (the request goes out as it is). */
  decline(): void {
    this.summaries = MAX_AUTO_COMPACTIONS_PER_PROMPT;
  }

  async summarize(request: () => Promise<void>): Promise<void> {
    this.summaries++;
    await request();
  }

  /** Counts a step; true when it is the last one allowed. */
  step(): boolean {
    this.steps++;
    this.lastStep = this.steps >= this.maxSteps;
    return this.lastStep;
  }
}
