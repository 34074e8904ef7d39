/**
 * Token counting and request preparation (Node, same-thread: our byte-pair counter over tiktoken's ranks),
 * and the encoder's build next to js-tiktoken's own (the ranks load the tokenizer Worker does once per page).
 * Run: npx vitest bench --run bench/
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kRanks from "js-tiktoken/ranks/cl100k_base";
import o200kRanks from "js-tiktoken/ranks/o200k_base";
import { bench, describe } from "vitest";
import { BytePairCounter } from "../src/adapters/tokens/bpe-counter";
import { countTexts, loadEncoder } from "../src/adapters/tokens/tiktoken-counter";
import { History, reasoning, text, tool } from "../src/core/compaction/test-fixtures";
import type { MessageWithParts, Part } from "../src/core/schema";
import { type TokenCounter, encodingForModel } from "../src/core/tokens/counter";
import { estimateRequestSize, measureRequest } from "../src/core/tokens/request-size";

const MIB = 1024 * 1024;

/** 1 MiB of this repository's own TypeScript (repeated if the repo is smaller). */
function corpus(): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith(".ts")) files.push(readFileSync(p, "utf8"));
    }
  };
  walk("src");
  let out = files.join("\n");
  while (out.length < MIB) out += `\n${out}`;
  return out.slice(0, MIB);
}

const TEXT = corpus();

/** A 2,000-part session: 400 turns of user text + assistant reasoning, text and two tool calls. */
function session(): MessageWithParts[] {
  const h = new History();
  let at = 0;
  const slice = (n: number) => {
    const s = TEXT.slice(at, at + n);
    at = (at + n) % (TEXT.length - 4_000);
    return s;
  };
  for (let i = 0; i < 400; i++) {
    h.user(text(slice(200)));
    h.assistant([reasoning(slice(300)), text(slice(400)), tool("read", { filePath: `src/f${i}.ts` }, slice(1_500)), tool("bash", { command: `npm test -- ${i}` }, slice(600))]);
  }
  return h.msgs;
}

const counter: TokenCounter = { encodingFor: encodingForModel, count: countTexts };
const encoding = encodingForModel("gpt-4o");
const uncached = session();
const system = ["You are tabcode.", "Environment."];
const first = await measureRequest(counter, { system, tools: [], messages: uncached, encoding });
const byId = new Map<string, Part>(first.upserts.map((p) => [p.id, p]));
const cached = uncached.map((m) => ({ info: m.info, parts: m.parts.map((p) => byId.get(p.id) ?? p) }));
const enc = await loadEncoder("o200k_base");
await loadEncoder("cl100k_base");
const tokens = enc.count(TEXT);
const parts = uncached.reduce((n, m) => n + m.parts.length, 0);
const chars = uncached.reduce((n, m) => n + m.parts.reduce((k, p) => k + (p.type === "text" || p.type === "reasoning" ? p.text.length : p.type === "tool" && p.state.status === "completed" ? p.state.output.length : 0), 0), 0);
const estimated = estimateRequestSize({ system, tools: [], messages: cached.slice(0, -1).concat(uncached.slice(-1)), encoding });
console.table({
  estimate: { size: `last message new, the rest cached: estimate ${estimated.total} vs exact ${first.total} tokens, bound ${estimated.estimate?.upper}`, tokens_o200k: estimated.total },
  corpus: { size: `${(TEXT.length / MIB).toFixed(2)} MiB`, tokens_o200k: tokens },
  session: { size: `${parts} parts, ${(chars / MIB).toFixed(2)} MiB`, tokens_o200k: first.total },
});

describe("build the encoder from its ranks (once per page, in the tokenizer Worker)", () => {
  // Three builds each, no warm-up (tinybench still calls the function once to probe it): the first build in a
  // page's Worker runs colder than these (measured once in a fresh Node process: ours ~0.2 s, js-tiktoken's ~1.2–1.4 s).
  const once = { iterations: 3, warmupIterations: 0, warmupTime: 0, time: 0 };
  for (const [name, ranks] of [
    ["o200k_base", o200kRanks],
    ["cl100k_base", cl100kRanks],
  ] as const) {
    bench(`${name}: ours`, () => void BytePairCounter.build(ranks), once);
    bench(`${name}: js-tiktoken's Tiktoken`, () => void new Tiktoken(ranks), once);
  }
});

describe("count 1 MiB of TypeScript: js-tiktoken's encode (for comparison)", () => {
  const lib = new Tiktoken(o200kRanks);
  bench("o200k_base", () => {
    lib.encode(TEXT, [], []);
  }, { iterations: 3, warmupIterations: 1, time: 0 });
});

describe("count 1 MiB of TypeScript (direct counter)", () => {
  bench("o200k_base", async () => {
    await countTexts([TEXT], "o200k_base");
  }, { iterations: 3, warmupIterations: 1, time: 0 });
  bench("cl100k_base", async () => {
    await countTexts([TEXT], "cl100k_base");
  }, { iterations: 3, warmupIterations: 1, time: 0 });
});

describe("prepare a request for a 2,000-part session", () => {
  bench("cached counts (counts nothing)", async () => {
    const size = await measureRequest(counter, { system, tools: [], messages: cached, encoding });
    if (size.counted > system.length) throw new Error("cache missed");
  });
  bench("estimate while the tokenizer loads (first send after a page load)", () => {
    const size = estimateRequestSize({ system, tools: [], messages: uncached, encoding });
    if (!size.estimate || size.estimate.upper < first.total) throw new Error("the bound is below the exact count");
  });
  bench("uncached (counts every part)", async () => {
    await measureRequest(counter, { system, tools: [], messages: uncached, encoding });
  }, { iterations: 3, warmupIterations: 1, time: 0 });
});
