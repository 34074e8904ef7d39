/**
 * Request preparation with warm caches: what the loop does before every
 * step (spec §2.2) — pick the shown branch, `filterCompacted`, count the
 * request exactly (`measureRequest` with per-part cached counts and a
 * `CountMemo` for the system prompt and tool specs), ask the policy, convert
 * to model messages with cache markers — on sessions of 100, 1,000 and 5,000
 * messages of real text, counted with js-tiktoken. Then one new message is
 * added: the next preparation counts only that message's parts.
 */
import { createTiktokenCounter } from "../../src/adapters/tokens/tiktoken-counter";
import { applyCacheMarkers } from "../../src/core/compaction/cache-markers";
import { DEFAULT_POLICY, DEFAULT_CACHE_PRICE } from "../../src/core/compaction/policy";
import { compaction, History, reasoning, text, tool } from "../../src/core/compaction/test-fixtures";
import type { MessageWithParts, Part } from "../../src/core/schema";
import { activePath } from "../../src/core/conversation/branches";
import { toModelMessages } from "../../src/core/conversation/to-model";
import { filterCompacted } from "../../src/core/conversation/view";
import { CountMemo, measureRequest, type RequestSize } from "../../src/core/tokens/request-size";
import { prng } from "./generate";

const counter = createTiktokenCounter();
const encoding = counter.encodingFor("gpt-4o");
const SYSTEM = ["You are tabcode, a coding agent in a browser tab.".repeat(40), "Environment: /workspace, local sandbox.".repeat(60)];
const TOOLS = ["read", "edit", "write", "bash", "grep", "glob", "list", "todowrite", "skill"].map((name) => ({
  name,
  description: `The ${name} tool. `.repeat(30),
  inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } },
}));
const MODEL = { contextWindow: 128_000, maxOutputTokens: 16_384 };
const SETTINGS = { compaction: { auto: true, prune: true, threshold: 1 } };

const WORDS = "const let function return import export from await async type interface if else for while new this class extends string number boolean".split(" ");

/** Deterministic code-like text of about `chars` characters. */
function prose(rnd: () => number, chars: number): string {
  let s = "";
  while (s.length < chars) s += `${WORDS[Math.floor(rnd() * WORDS.length)]}${rnd() < 0.15 ? ";\n" : " "}`;
  return s;
}

/** Messages between summaries in a compacted session (the shipped 128k traces average about 60). */
export const SUMMARY_EVERY = 60;

/**
 * `n` messages: user prompts answered by assistant steps with reasoning,
 * text and a tool call. `compacted`: as a long session looks under a
 * compacting policy — a summary every SUMMARY_EVERY messages and the tool
 * outputs of earlier turns pruned — so the history sent is only what
 * followed the last summary. Otherwise all `n` messages are sent (a
 * million-token window, or no compaction).
 */
export function buildSession(n: number, compacted: boolean, seed = 7): MessageWithParts[] {
  const rnd = prng(seed);
  const h = new History();
  let since = 0;
  let pruned = 0;
  while (h.msgs.length < n) {
    if (compacted && since >= SUMMARY_EVERY) {
      const request = h.user(compaction(true));
      h.assistant([text(prose(rnd, 8_000))], { summary: true, parent: request.info.id });
      h.user(text("Continue if you have next steps.", { synthetic: true }));
      since = 0;
    }
    // Earlier turns' outputs are pruned (as the policy leaves them).
    for (; compacted && pruned < h.msgs.length; pruned++) for (const p of h.msgs[pruned]?.parts ?? []) if (p.type === "tool" && p.state.status === "completed") p.state.time.compacted = 1;
    h.user(text(prose(rnd, 200)));
    for (let s = 0; s < 3 && h.msgs.length < n; s++) h.assistant([reasoning(prose(rnd, 300)), text(prose(rnd, 200)), tool("read", { filePath: `src/f${h.msgs.length}.ts` }, prose(rnd, 1_200))], { finish: "tool-calls" });
    since += 4;
  }
  return h.msgs;
}

/** Applies the counts `measureRequest` asks to persist (what the store would do). */
function persist(msgs: MessageWithParts[], size: RequestSize): void {
  const byId = new Map<string, Part>(size.upserts.map((p) => [p.id, p]));
  if (byId.size === 0) return;
  for (const m of msgs) m.parts = m.parts.map((p) => byId.get(p.id) ?? p);
}

/** One preparation, as the loop does it before a step. */
async function prepare(all: MessageWithParts[], memo: CountMemo): Promise<RequestSize> {
  const view = filterCompacted(activePath(all, undefined));
  const size = await measureRequest(counter, { system: SYSTEM, tools: TOOLS, messages: view, encoding }, memo);
  DEFAULT_POLICY.decide({ moment: "step", view, request: size.total, model: MODEL, settings: SETTINGS, cachePrice: DEFAULT_CACHE_PRICE, encoding });
  applyCacheMarkers(toModelMessages(view));
  return size;
}

export interface PrepRow {
  messages: number;
  compacted: boolean;
  /** Messages in the history sent (after `filterCompacted`). */
  sent: number;
  tokens: number;
  /** First preparation: everything counted. */
  coldMs: number;
  /** Median of warm preparations: nothing counted. */
  warmMs: number;
  /** Median with one new message each time: its parts are the only texts counted. */
  newMessageMs: number;
  newTexts: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

export async function measurePrep(sizes: number[] = [100, 1_000, 5_000]): Promise<PrepRow[]> {
  await counter.count(["load the encoder first"], encoding);
  const rows: PrepRow[] = [];
  for (const compacted of [true, false])
    for (const n of sizes) rows.push(await measureOne(n, compacted));
  return rows;
}

async function measureOne(n: number, compacted: boolean): Promise<PrepRow> {
  const msgs = buildSession(n, compacted);
  const memo = new CountMemo();
  let t = performance.now();
  const first = await prepare(msgs, memo);
  const coldMs = performance.now() - t;
  persist(msgs, first);
  for (let i = 0; i < 3; i++) await prepare(msgs, memo); // warm up the JIT
  const warm: number[] = [];
  for (let i = 0; i < 15; i++) {
    t = performance.now();
    const size = await prepare(msgs, memo);
    warm.push(performance.now() - t);
    if (size.counted !== 0) throw new Error(`warm preparation counted ${size.counted} texts`);
  }
  // One new step at a time, five times: only its parts are counted.
  const h = new History(msgs[0]?.info.sessionID);
  h.msgs.push(...msgs);
  const rnd = prng(n);
  const added: number[] = [];
  let next = first;
  for (let i = 0; i < 5; i++) {
    h.assistant([reasoning(prose(rnd, 300)), text(prose(rnd, 200)), tool("bash", { command: "npm test" }, prose(rnd, 1_500))], { finish: "tool-calls" });
    t = performance.now();
    next = await prepare(h.msgs, memo);
    added.push(performance.now() - t);
    persist(h.msgs, next);
  }
  const newMessageMs = median(added);
  return { messages: n, compacted, sent: filterCompacted(msgs).length, tokens: first.total, coldMs, warmMs: median(warm), newMessageMs, newTexts: next.counted };
}
