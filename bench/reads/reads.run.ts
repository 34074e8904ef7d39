/**
 * Store reads per loop step on a 5,000-message session: how often the loop
 * reads (and, in the browser, validates) the whole session from storage
 * before its first token and per step, with and without the in-memory view.
 * Run: npm run bench:reads
 */
import { it } from "vitest";
import { Bus } from "../../src/core/bus";
import { History, text, tool } from "../../src/core/compaction/test-fixtures";
import { ascendingId } from "../../src/core/ids";
import { PermissionBroker } from "../../src/core/permission/broker";
import { DEFAULT_RULES } from "../../src/core/permission/evaluate";
import type { LLMRequest } from "../../src/core/ports/llm";
import type { Store } from "../../src/core/ports/store";
import type { MessageWithParts, Session } from "../../src/core/schema";
import { SessionService } from "../../src/core/session/loop";
import { defaultSettings, modelConfig, type Settings } from "../../src/core/settings";
import { FakeLLM, textTurn, toolTurn } from "../../src/testing/fake-llm";
import { MemoryStore } from "../../src/testing/memory-store";
import { todoWriteTool } from "../../src/core/tools/todo";

const MESSAGES = 5000;

/** Counts whole-session reads (`messages()`) and the rows they return, i.e. what IndexedDB would read and zod validate. */
function counting(inner: MemoryStore): { store: Store; reads: () => { calls: number; rows: number } } {
  let calls = 0;
  let rows = 0;
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === "messages")
        return async (id: string) => {
          const out: MessageWithParts[] = await target.messages(id);
          calls++;
          rows += out.reduce((n, m) => n + 1 + m.parts.length, 0);
          return out;
        };
      const v = Reflect.get(target, prop, receiver);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { store, reads: () => ({ calls, rows }) };
}

async function run(mirror: boolean) {
  const memory = new MemoryStore();
  const h = new History();
  for (let i = 0; i < MESSAGES / 2; i++) h.turn(`question ${i}`, [text(`answer ${i}`), tool("read", { filePath: `/workspace/f${i}.ts` }, `line ${i}\n`.repeat(5))]);
  const session: Session = { id: h.sessionID, title: "Long session", directory: "/workspace", version: "bench", time: { created: 1, updated: 1 }, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0 };
  await memory.importSession(session, h.msgs);
  const { store, reads } = counting(memory);
  const atRequest: { calls: number; rows: number }[] = [];
  const at = (turn: ReturnType<typeof textTurn>) => (_req: LLMRequest) => {
    atRequest.push(reads());
    return turn;
  };
  // Different calls each step (three identical ones in a row would stop for a permission question).
  const todo = (n: number) => at(toolTurn([{ tool: "todowrite", input: { todos: [{ content: `step ${n}`, status: "pending", priority: "low", id: `${n}` }] } }]));
  const llm = new FakeLLM([todo(1), todo(2), todo(3), at(textTurn("done"))]);
  const settings: Settings = { ...defaultSettings(), provider: "openai-compatible", modelID: "gpt-4o-mini", compaction: { ...defaultSettings().compaction, auto: false } };
  const service = new SessionService({
    store,
    llm,
    clock: { now: () => Date.now(), sleep: async () => undefined },
    bus: new Bus(),
    permissions: new PermissionBroker(() => [DEFAULT_RULES]),
    settings: () => settings,
    model: () => modelConfig(settings),
    tools: () => [todoWriteTool],
    mirror,
    version: "bench",
  });
  const before = reads();
  await service.prompt(session.id, { text: `next ${ascendingId("msg")}` });
  await service.ensureRunning(session.id);
  const end = reads();
  const first = atRequest[0] ?? end;
  const steps = atRequest.length;
  return {
    firstCalls: first.calls - before.calls,
    firstRows: first.rows - before.rows,
    later: end.calls - first.calls,
    perStep: ((end.calls - before.calls) / Math.max(1, steps)).toFixed(2),
    steps,
  };
}

it("prints store reads per step", async () => {
  const rows: string[] = [];
  for (const [label, mirror] of [
    ["before: every look reads storage", false],
    ["after: in-memory view of the run", true],
  ] as const) {
    const r = await run(mirror);
    rows.push(`| ${label} | ${MESSAGES} | ${r.steps} | ${r.firstCalls} | ${r.firstRows} | ${r.later} | ${r.perStep} |`);
  }
  console.log(
    ["", "Whole-session store reads (what IndexedDB reads and zod validates) for one prompt answered in 4 steps", "| loop | messages | steps | reads before 1st token | rows read before 1st token | reads after 1st token | reads per step |", "|---|---|---|---|---|---|---|", ...rows, ""].join("\n"),
  );
});
