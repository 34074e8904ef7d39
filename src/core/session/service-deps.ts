import type { Bus } from "../bus";
import type { PermissionBroker } from "../permission/broker";
import type { Clock } from "../ports/clock";
import type { LLM, LLMToolSpec, ModelConfig } from "../ports/llm";
import type { Locks } from "../ports/locks";
import type { Sandbox } from "../ports/sandbox";
import type { Store } from "../ports/store";
import type { MessageWithParts, Session } from "../schema";
import type { Settings } from "../settings";
import type { TokenCounter } from "../tokens/counter";
import type { Tool } from "../tools/tool";

/** What the session service and its loop are built from (the ports and the app's choices). */
export interface SessionServiceDeps {
  store: Store;
  llm: LLM;
  clock: Clock;
  bus: Bus;
  permissions: PermissionBroker;
  settings(): Settings;
  /** The model a session runs on (the settings' model, or the demo model for demo sessions). */
  model(session?: Session): ModelConfig;
  /** Tools offered to the model for an agent in a session (tools denied by `deny *` removed); may load them first. */
  tools(agent: string, session: Session): Tool[] | Promise<Tool[]>;
  sandbox?(sessionID: string): Promise<Sandbox | undefined>;
  /** The system prompt sections ([header, rest]); defaults to the base prompt and environment. */
  system?(input: SystemInput): Promise<string[]>;
  locks?: Locks;
  /** Exact token counts (a tokenizer); estimates (chars/4) when absent. */
  counter?: TokenCounter;
  /**
   * Resolves once no command of the person's runs in the session's terminal: a step's tools and starting snapshot wait
   * for it. `waiting` hears the line of a command it learns of later (another tab's), named while the step waits.
   */
  userCommandsDone?(sessionID: string, waiting?: (command: string) => void): Promise<void>;
  /** The line of the person's command running in the session's terminal now (undefined: none), named while a step waits for it. */
  userCommand?(sessionID: string): string | undefined;
  /** History was dropped from a session (a committed revert): snapshot storage no message names any more may be collected. */
  historyDropped?(sessionID: string): void;
  /** How long an automatic summary waits for the user (Cancel / Summarise now); 0 (default) starts it at once. */
  compactionGraceMs?: number;
  /** Keep a running session's messages in memory (default); `false` re-reads storage on every look (benchmarks). */
  mirror?: boolean;
  version: string;
}

export interface SystemInput {
  session: Session;
  model: ModelConfig;
  sandbox: Sandbox | undefined;
  agent: string;
  /** The user message's own system text. */
  userSystem?: string;
  /** The session's tool state (to seed what instruction files the prompt already holds). */
  toolState: Map<string, unknown>;
  /** The shown branch as stored (before compaction): where pinned suggestions come from. */
  history?: MessageWithParts[];
  /** Only a look at the next request (a view sizing it): rules and skills are read but not fixed for the session. */
  preview?: boolean;
}

/** What the last request of a session held (for the debug view). */
export interface RequestRecord {
  system: string[];
  tools: LLMToolSpec[];
  time: number;
  /** How the request was sized: the tokenizer's exact count, or an estimate (tokenizer still loading, or failed). */
  count: "exact" | "estimate";
}

export interface PromptInput {
  text: string;
  /** Edit-and-resend: the user message this one is an alternative to (a new branch). */
  editOf?: string;
  agent?: string;
  /** Attachments: images as data: URLs; workspace text files (`text` set) also get their contents as a synthetic text part. */
  files?: PromptFile[];
  /** A message tabcode writes for a `/goal` (synthetic: shown as a system event, never as "You"). */
  goal?: "start" | "continue";
  /** The Continue action after an answer that was cut (output limit, a closed tab): the person asked for it, tabcode wrote it. */
  continueAnswer?: boolean;
}

export interface PromptFile {
  mime: string;
  filename: string;
  url: string;
  /** The workspace path of an @-mentioned file. */
  path?: string;
  /** The text of an attached text file, sent to the model with its path. */
  text?: string;
}
