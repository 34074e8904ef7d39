/** Sample sessions for the export/import/fork tests (never imported by app code). */
import { MemoryStore } from "../../testing/memory-store";
import { ascendingId, descendingId } from "../ids";
import type { Store } from "../ports/store";
import { type AssistantMessage, emptyTokens, type MessageWithParts, type Part, type Session, type Tokens, type UserMessage } from "../schema";

export const T0 = 1_767_225_600_000;

type PartBody = Part extends infer P ? (P extends Part ? Omit<P, "id" | "sessionID" | "messageID"> : never) : never;

export interface Sample {
  session: Session;
  messages: MessageWithParts[];
}

/** Builds messages of one session; ids ascend in call order. */
export class SessionBuilder {
  readonly session: Session;
  readonly messages: MessageWithParts[] = [];
  constructor(over: Partial<Session> = {}) {
    this.session = {
      id: descendingId("ses"),
      title: "Fix the add() bug",
      directory: "/workspace",
      version: "0.1.0",
      time: { created: T0, updated: T0 + 60_000 },
      tokens: emptyTokens(),
      cost: 0,
      unpriced: 0,
      ...over,
    };
  }

  user(text: string, extra: PartBody[] = []): UserMessage {
    const info: UserMessage = {
      id: ascendingId("msg"),
      sessionID: this.session.id,
      role: "user",
      time: { created: T0 + this.messages.length * 1000 },
      agent: "build",
      model: { providerID: "openai", modelID: "gpt-5" },
    };
    this.add(info, [{ type: "text", text }, ...extra]);
    return info;
  }

  assistant(parent: UserMessage, parts: PartBody[], over: Partial<AssistantMessage> = {}): AssistantMessage {
    const created = T0 + this.messages.length * 1000;
    const info: AssistantMessage = {
      id: ascendingId("msg"),
      sessionID: this.session.id,
      role: "assistant",
      parentID: parent.id,
      time: { created, completed: created + 2500 },
      modelID: "gpt-5",
      providerID: "openai",
      agent: "build",
      cost: 0,
      tokens: emptyTokens(),
      finish: "stop",
      ...over,
    };
    this.add(info, parts);
    return info;
  }

  private add(info: UserMessage | AssistantMessage, bodies: PartBody[]): void {
    const parts = bodies.map((b) => ({ ...b, id: ascendingId("prt"), sessionID: this.session.id, messageID: info.id }) as Part);
    this.messages.push({ info, parts });
  }

  build(): Sample {
    return { session: this.session, messages: this.messages };
  }
}

export function tokens(input: number, output: number, reasoning = 0, read = 0): Tokens {
  return { input, output, reasoning, cache: { read, write: 0 } };
}

/** A two-turn session exercising most part types and tool states. */
export function sampleSession(over: Partial<Session> = {}): Sample {
  const b = new SessionBuilder(over);
  const u1 = b.user("Why does add() fail?", [{ type: "file", mime: "image/png", filename: "shot.png", url: "data:image/png;base64,iVBORw0KGgo=" }]);
  b.assistant(
    u1,
    [
      { type: "step-start", snapshot: "snap1" },
      { type: "reasoning", text: "Look at the test first.", time: { start: T0, end: T0 + 10 } },
      { type: "text", text: "Running the tests." },
      {
        type: "tool",
        callID: "call_1",
        tool: "bash",
        state: { status: "completed", input: { command: "npm test" }, output: "1 failed", title: "npm test", metadata: { exit: 1 }, time: { start: T0, end: T0 + 5 } },
      },
      { type: "tool", callID: "call_2", tool: "read", state: { status: "error", input: { path: "nope.ts" }, error: "File not found", time: { start: T0, end: T0 + 1 } } },
      { type: "step-finish", reason: "tool-calls", cost: 0.01, tokens: tokens(1000, 100, 50, 200) },
    ],
    { finish: "tool-calls", cost: 0.01, tokens: tokens(1000, 100, 50, 200) },
  );
  b.assistant(
    u1,
    [
      { type: "step-start" },
      { type: "text", text: "Fixed: it subtracted." },
      { type: "step-finish", reason: "stop", cost: 0.02, tokens: tokens(300, 40) },
      { type: "patch", hash: "snap1", files: ["src/math.ts"] },
    ],
    { cost: 0.02, tokens: tokens(300, 40) },
  );
  const u2 = b.user("Thanks! Add a test too.");
  b.assistant(u2, [
    { type: "text", text: "Done." },
    { type: "step-finish", reason: "stop", cost: 0.005, tokens: tokens(50, 10) },
  ]);
  b.session.tokens = tokens(1350, 150, 50, 200);
  b.session.cost = 0.035;
  return b.build();
}

export async function storeWith(...samples: Sample[]): Promise<MemoryStore> {
  const store = new MemoryStore();
  for (const s of samples) await store.importSession(s.session, s.messages);
  return store;
}

/** Everything in a store, for "unchanged" checks. */
export async function dumpStore(store: Store): Promise<string> {
  const sessions = [...(await store.listSessions()), ...(await store.listSessions({ archived: true }))].sort((a, b) => (a.id < b.id ? -1 : 1));
  const out: unknown[] = [];
  for (const s of sessions) out.push({ s, m: await store.messages(s.id) });
  return JSON.stringify(out);
}

/** Message and part content with ids, session ids and parent links taken out (for "same content" checks). */
export function contentOf(messages: readonly MessageWithParts[]): unknown[] {
  return messages.map((m) => {
    const { id: _i, sessionID: _s, ...info } = m.info as Record<string, unknown>;
    delete info.parentID;
    return { info, parts: m.parts.map(({ id: _p, sessionID: _ps, messageID: _pm, ...rest }) => rest) };
  });
}
