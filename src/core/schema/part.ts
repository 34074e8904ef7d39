import { z } from "../zod";
import { NamedErrorSchema, Tokens } from "./common";

const PartBase = z.object({
  id: z.string().check(z.startsWith("prt_")),
  sessionID: z.string().check(z.startsWith("ses_")),
  messageID: z.string().check(z.startsWith("msg_")),
  /** Cached exact token count of what this part sends to the model. */
  tokenCount: z.optional(z.object({ encoding: z.string(), count: z.number(), size: z.number() })),
});

const Metadata = z.record(z.string(), z.unknown());
const TimeSpan = z.object({ start: z.number(), end: z.optional(z.number()) });

export const TextPart = z.extend(PartBase, {
  type: z.literal("text"),
  text: z.string(),
  /** Injected by the system (continue prompts, file contents), not typed by a person. */
  synthetic: z.optional(z.boolean()),
  /** Not sent to the model. */
  ignored: z.optional(z.boolean()),
  time: z.optional(TimeSpan),
  metadata: z.optional(Metadata),
});
export type TextPart = z.infer<typeof TextPart>;

export const ReasoningPart = z.extend(PartBase, {
  type: z.literal("reasoning"),
  text: z.string(),
  metadata: z.optional(Metadata),
  time: TimeSpan,
});
export type ReasoningPart = z.infer<typeof ReasoningPart>;

export const FilePartSource = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("file"),
    path: z.string(),
    text: z.object({ value: z.string(), start: z.number(), end: z.number() }),
  }),
  z.object({
    type: z.literal("symbol"),
    path: z.string(),
    range: z.unknown(),
    name: z.string(),
    kind: z.number(),
    text: z.object({ value: z.string(), start: z.number(), end: z.number() }),
  }),
  z.object({
    type: z.literal("resource"),
    clientName: z.string(),
    uri: z.string(),
    text: z.object({ value: z.string(), start: z.number(), end: z.number() }),
  }),
]);

export const FilePart = z.extend(PartBase, {
  type: z.literal("file"),
  mime: z.string(),
  filename: z.optional(z.string()),
  /** A data: URL (or file:// for workspace files). */
  url: z.string(),
  source: z.optional(FilePartSource),
});
export type FilePart = z.infer<typeof FilePart>;

/** Attachments carried by completed tool results (same shape as a file part, without ids). */
export const Attachment = z.object({ mime: z.string(), filename: z.optional(z.string()), url: z.string() });
export type Attachment = z.infer<typeof Attachment>;

export const ToolStatePending = z.object({
  status: z.literal("pending"),
  input: z.record(z.string(), z.unknown()),
  /** Raw argument text as it streams. */
  raw: z.string(),
});
export const ToolStateRunning = z.object({
  status: z.literal("running"),
  input: z.record(z.string(), z.unknown()),
  title: z.optional(z.string()),
  metadata: z.optional(Metadata),
  time: z.object({ start: z.number() }),
});
export const ToolStateCompleted = z.object({
  status: z.literal("completed"),
  input: z.record(z.string(), z.unknown()),
  output: z.string(),
  title: z.string(),
  metadata: Metadata,
  /** `compacted` set means the output was pruned from what the model sees. */
  time: z.object({ start: z.number(), end: z.number(), compacted: z.optional(z.number()) }),
  attachments: z.optional(z.array(Attachment)),
});
export const ToolStateError = z.object({
  status: z.literal("error"),
  input: z.record(z.string(), z.unknown()),
  error: z.string(),
  /** `interrupted: true` means the call was aborted. */
  metadata: z.optional(Metadata),
  time: z.object({ start: z.number(), end: z.number() }),
});
export const ToolState = z.discriminatedUnion("status", [
  ToolStatePending,
  ToolStateRunning,
  ToolStateCompleted,
  ToolStateError,
]);
export type ToolState = z.infer<typeof ToolState>;
export type ToolStateCompleted = z.infer<typeof ToolStateCompleted>;

export const ToolPart = z.extend(PartBase, {
  type: z.literal("tool"),
  callID: z.string(),
  tool: z.string(),
  state: ToolState,
  metadata: z.optional(Metadata),
});
export type ToolPart = z.infer<typeof ToolPart>;

export const StepStartPart = z.extend(PartBase, {
  type: z.literal("step-start"),
  snapshot: z.optional(z.string()),
});
export type StepStartPart = z.infer<typeof StepStartPart>;

export const StepFinishPart = z.extend(PartBase, {
  type: z.literal("step-finish"),
  reason: z.string(),
  /** The provider's own finish word when it says more than `reason` (e.g. `refusal`). */
  rawReason: z.optional(z.string()),
  /** Problems the step recovered from (e.g. an unreadable chunk), shown with the answer. */
  warnings: z.optional(z.array(z.string())),
  /** The provider reported no usage: the zero tokens are unknown, not zero. */
  usageUnknown: z.optional(z.boolean()),
  /** The model's prices are unknown: the zero cost is unknown, not free. */
  priceUnknown: z.optional(z.boolean()),
  snapshot: z.optional(z.string()),
  cost: z.number().check(z.nonnegative()),
  tokens: Tokens,
});
export type StepFinishPart = z.infer<typeof StepFinishPart>;

/** Legacy snapshot marker, kept for imports of old files. */
export const SnapshotPart = z.extend(PartBase, { type: z.literal("snapshot"), snapshot: z.string() });
export type SnapshotPart = z.infer<typeof SnapshotPart>;

export const PatchPart = z.extend(PartBase, {
  type: z.literal("patch"),
  /** The pre-step snapshot. */
  hash: z.string(),
  files: z.array(z.string()),
});
export type PatchPart = z.infer<typeof PatchPart>;

const SourceSpan = z.object({ value: z.string(), start: z.number(), end: z.number() });

export const AgentPart = z.extend(PartBase, {
  type: z.literal("agent"),
  name: z.string(),
  source: z.optional(SourceSpan),
});

export const SubtaskPart = z.extend(PartBase, {
  type: z.literal("subtask"),
  prompt: z.string(),
  description: z.string(),
  agent: z.string(),
  model: z.optional(z.object({ providerID: z.string(), modelID: z.string() })),
  command: z.optional(z.string()),
});

export const RetryPart = z.extend(PartBase, {
  type: z.literal("retry"),
  attempt: z.int().check(z.positive()),
  error: NamedErrorSchema,
  time: z.object({ created: z.number(), next: z.optional(z.number()) }),
});
export type RetryPart = z.infer<typeof RetryPart>;

/** The post-compaction check of the first request after a summary: pins and touched files present, and what had to be re-added. */
export const CompactionCheck = z.object({
  pins: z.int().check(z.nonnegative()),
  files: z.int().check(z.nonnegative()),
  reinjectedPins: z.int().check(z.nonnegative()),
  reinjectedFiles: z.int().check(z.nonnegative()),
  /** Earlier user messages sent verbatim after the summary, and older ones that did not fit the budget. */
  userMessages: z.int().check(z.nonnegative()),
  droppedUserMessages: z.int().check(z.nonnegative()),
  time: z.number(),
});
export type CompactionCheck = z.infer<typeof CompactionCheck>;

export const CompactionPart = z.extend(PartBase, {
  type: z.literal("compaction"),
  auto: z.boolean(),
  overflow: z.optional(z.boolean()),
  tail_start_id: z.optional(z.string()),
  /** How to ask for the summary: `cached-prefix` re-sends the next chat request (served from the provider's cache) plus the instructions; `transcript` (default) sends the history as text. */
  mode: z.optional(z.enum(["transcript", "cached-prefix"])),
  /** Set by the first request after the summary (see core/pins/after-compaction). */
  check: z.optional(CompactionCheck),
  /** The tool whose compaction this is, for one imported from another agent's history (`claude-code`, `codex`, `opencode`…); absent for tabcode's own. */
  origin: z.optional(z.string()),
});
export type CompactionPart = z.infer<typeof CompactionPart>;

export const Part = z.discriminatedUnion("type", [
  TextPart,
  ReasoningPart,
  FilePart,
  ToolPart,
  StepStartPart,
  StepFinishPart,
  SnapshotPart,
  PatchPart,
  AgentPart,
  SubtaskPart,
  RetryPart,
  CompactionPart,
]);
export type Part = z.infer<typeof Part>;
export type PartType = Part["type"];

/** Parts as written: ids are required, the rest follows the union. */
export const PART_TYPES: readonly PartType[] = [
  "text",
  "reasoning",
  "file",
  "tool",
  "step-start",
  "step-finish",
  "snapshot",
  "patch",
  "agent",
  "subtask",
  "retry",
  "compaction",
];
