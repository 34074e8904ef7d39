import type { LLMToolSpec } from "../ports/llm";
import type { Sandbox } from "../ports/sandbox";
import type { MessageWithParts, Part, ToolPart } from "../schema";
import type { Tool } from "../tools/tool";
import { MAX_AUTO_COMPACTIONS_PER_PROMPT } from "./context-guard";

export const MAX_STEPS_PROMPT =
  "I have reached the maximum number of steps for this turn. I must not call any more tools. I will now answer in text: a summary of what was done and what remains.";

/** The fixed parts of the next request. */
export interface TurnRequest {
  sandbox: Sandbox | undefined;
  agent: string;
  tools: Tool[];
  toolState: Map<string, unknown>;
  system: string[];
  specs: LLMToolSpec[];
}

/** The tool parts of the assistant messages answering `userID` (what this turn already ran). */
export function turnTools(msgs: MessageWithParts[], userID: string): ToolPart[] {
  const out: ToolPart[] = [];
  for (const m of msgs)
    if (m.info.role === "assistant" && m.info.parentID === userID)
      for (const p of m.parts as Part[]) if (p.type === "tool") out.push(p);
  return out;
}

/** Steps per prompt (max steps) and automatic summaries per prompt a person sent. */
export class TurnCounter {
  private steps = 0;
  private stepsFor: string | undefined;
  private promptID: string | undefined;
  private summaries = 0;
  /** The request's size when the newest summary was asked for (until the first measure after it). */
  private before: number | undefined;
  /** A summary was made this turn and no answer has come since. */
  private unanswered = false;
  lastStep = false;

  constructor(private readonly maxSteps: number) {}

  /** Called with the newest prompt a person sent and the newest user message (replays and continues included). */
  look(promptID: string | undefined, userID: string): void {
    if (promptID !== this.promptID) {
      this.promptID = promptID;
      this.summaries = 0;
      this.before = undefined;
      this.unanswered = false;
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

  /** Asks for a summary of a request of `before` (calibrated) tokens. */
  async summarize(request: () => Promise<void>, before?: number): Promise<void> {
    this.summaries++;
    this.before = before;
    this.unanswered = true;
    await request();
  }

  /** The request was measured: a summary that did not make it smaller is never followed by another for this prompt. */
  measured(total: number): void {
    if (this.before !== undefined && total >= this.before) this.summaries = MAX_AUTO_COMPACTIONS_PER_PROMPT;
    this.before = undefined;
  }

  /** A step got an answer (not a refused request). */
  answered(): void {
    this.unanswered = false;
  }

  /** True when a summary was made this turn and nothing has been answered since: another would only fold that summary again. */
  get justSummarized(): boolean {
    return this.unanswered;
  }

  /** Counts a step; true when it is the last one allowed. */
  step(): boolean {
    this.steps++;
    this.lastStep = this.steps >= this.maxSteps;
    return this.lastStep;
  }
}
