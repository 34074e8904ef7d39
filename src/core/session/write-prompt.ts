import { attachedFileText } from "../conversation/attached-file";
import type { Bus } from "../bus";
import { siblings } from "../conversation/branches";
import { conversationView, snapshotAt } from "../conversation/view";
import { ascendingId } from "../ids";
import type { Clock } from "../ports/clock";
import type { LLM, ModelConfig } from "../ports/llm";
import type { Sandbox } from "../ports/sandbox";
import type { Store } from "../ports/store";
import { isDefaultTitle, type MessageWithParts, type Part, type Session, type UserMessage } from "../schema";
import { addMessage } from "./add-message";
import { enterBranch, leaveBranch, snapshotBefore } from "./edits";
import { commitRevert } from "./revert";
import type { PromptInput } from "./service-deps";
import { generateTitle } from "./title";

/** What writing a prompt needs from the session service. */
export interface PromptContext {
  store: Store;
  clock: Clock;
  llm: LLM;
  bus: Bus;
  model(session: Session): ModelConfig;
  /** The model that writes titles (the summary model setting, else the session's). */
  titleModel(session: Session): ModelConfig;
  isBusy(sessionID: string): boolean;
  sandboxOf(sessionID: string): Promise<Sandbox | undefined>;
  assertIdleEverywhere(sessionID: string): Promise<void>;
  /** Resolves when the work a new prompt starts in the background (its title) may begin: after the prompt's own request. */
  backgroundAfter?(sessionID: string): Promise<void>;
  /** Messages a committed revert deleted (their saved outputs and snapshots may go). */
  dropped(sessionID: string, messages: MessageWithParts[]): Promise<void>;
}

/** A written prompt, and its session's row as the prompt's own transaction left it (undefined where the store does not say). */
export interface WrittenPrompt {
  user: UserMessage;
  session?: Session;
}

/**
 * Writes a user message at its place in the branch tree: after a revert it
 * takes the reverted turn's place; an edit-and-resend starts a new branch
 * from the files as they were before the edited message. Parts go first, so
 * a running loop never sees a user message without its text.
 */
export async function writePrompt(ctx: PromptContext, sessionID: string, input: PromptInput): Promise<WrittenPrompt> {
  const { store, clock } = ctx;
  const session = await store.getSession(sessionID);
  if (!session) throw new Error(`Session ${sessionID} not found`);
  // After a revert, the new prompt takes the reverted turn's place (in the branch that was reverted).
  let revertKey: string | undefined;
  if (session.revert && !ctx.isBusy(sessionID)) {
    revertKey = siblings(await store.messages(sessionID), session.revert.messageID).key;
    await ctx.dropped(sessionID, await commitRevert(store, session));
  }
  const model = ctx.model(session);
  const now = clock.now();
  // Without an edit or a revert, the new prompt's place is the tip of the shown branch: the messages without
  // their parts say where that is (a long session has thousands of parts to read and validate otherwise).
  const all = input.editOf || session.revert || !store.messageInfos ? await store.messages(sessionID) : (await store.messageInfos(sessionID)).map((info) => ({ info, parts: [] }));
  // Edit-and-resend: the old branch keeps its files; the new one starts from the files as they were before the edited message.
  const sandbox = input.editOf ? await ctx.sandboxOf(sessionID) : undefined;
  if (input.editOf) {
    await ctx.assertIdleEverywhere(sessionID);
    const v = conversationView(session, all);
    await leaveBranch(store, sandbox, v);
    // The new branch starts from the files as they were before the edited message (files first, then the branch).
    const at = v.shown.findIndex((m) => m.info.id === input.editOf);
    await enterBranch(sandbox, snapshotBefore(all, input.editOf) ?? (at >= 0 ? snapshotAt(v.shown.slice(0, at)) : undefined));
  }
  const prev = input.editOf ? siblings(all, input.editOf).key : (revertKey ?? conversationView(session, all).next);
  const user: UserMessage = {
    id: ascendingId("msg", now),
    sessionID,
    role: "user",
    time: { created: now },
    agent: input.agent ?? session.agent ?? "build",
    model: { providerID: model.provider, modelID: model.modelID },
    prev,
  };
  const parts: Part[] = [
    {
      id: ascendingId("prt"),
      sessionID,
      messageID: user.id,
      type: "text",
      text: input.text,
      ...(input.goal ? { synthetic: true, metadata: { goal: input.goal } } : input.continueAnswer ? { synthetic: true, metadata: { continue_answer: true } } : {}),
    },
  ];
  for (const f of input.files ?? []) {
    if (f.text !== undefined)
      parts.push({ id: ascendingId("prt"), sessionID, messageID: user.id, type: "text", text: attachedFileText(f.path ?? f.filename, f.text), synthetic: true, metadata: { attachment: true } });
    const source = f.path ? { source: { type: "file" as const, path: f.path, text: { value: `@${f.path}`, start: 0, end: 0 } } } : {};
    parts.push({ id: ascendingId("prt"), sessionID, messageID: user.id, type: "file", mime: f.mime, filename: f.filename, url: f.url, ...source });
  }
  const update = (s: Session): Session => ({
    ...s,
    agent: user.agent,
    model: user.model,
    time: { ...s.time, updated: now },
    // A new branch (an edit, or the prompt that replaces a reverted turn) becomes the one shown.
    ...(input.editOf || revertKey !== undefined ? { branches: { ...s.branches, [prev]: user.id } } : {}),
  });
  // One transaction: the prompt, its attachments and the session's new state are stored together.
  const updated = await addMessage(store, user, parts, update);
  maybeTitle(ctx, session, input.text);
  return { user, ...(updated ? { session: updated } : {}) };
}

/** Titles a session from its first real prompt, in the background (a failure leaves the default title). */
function maybeTitle(ctx: PromptContext, session: Session, text: string): void {
  if (session.parentID || !isDefaultTitle(session.title)) return;
  const { store, bus } = ctx;
  void (async () => {
    // The title is written by the model too: its request waits until the prompt's own is answering.
    await ctx.backgroundAfter?.(session.id);
    const msgs = await store.messages(session.id);
    const realUsers = msgs.filter((m) => m.info.role === "user" && m.parts.some((p) => p.type === "text" && !p.synthetic));
    if (realUsers.length !== 1) return;
    const title = await generateTitle(ctx.llm, ctx.titleModel(session), text, AbortSignal.timeout(60_000));
    if (!title) return;
    const updated = await store.updateSession(session.id, (s) => (isDefaultTitle(s.title) ? { ...s, title } : s));
    if (updated?.title === title) bus.publish({ type: "session.title", sessionID: session.id, title });
  })().catch(() => undefined);
}
