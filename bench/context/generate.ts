/**
 * Deterministic synthetic traces of tool-heavy coding work (seeded PRNG):
 * reads of varied size, searches, edits (whose arguments the model writes),
 * test runs with occasional long logs, todo updates, a skill now and then,
 * and idle gaps between turns. The shipped files in traces/ are this
 * generator's output; `npm run bench:context -- --generate` rewrites them.
 */
import type { Trace, TraceStep, TraceTool, TraceTurn } from "./trace";
import { mulberry32 as prng } from "../../src/testing/prng";

export { prng };

/** Knobs of one workload. Sizes are token counts. */
export interface Profile {
  turns: number;
  system: number;
  model: { context: number; maxOutput: number };
  /** Median and cap of a file read (the read tool stops at 2,000 lines / 50 KB ≈ 12k tokens). */
  read: { median: number; max: number };
  /** A test or build run: typical median, and the chance and size of a long failure log. */
  bash: { median: number; max: number; bigChance: number; big: [number, number] };
  /** Relative weights of what a tool step does. */
  mix: { read: number; search: number; edit: number; bash: number; todo: number; skill: number };
  /** Chance of a long turn (an investigation of 10–25 steps). */
  longTurn: number;
  /** Chance that a tool step needs an earlier read's content again (one of the last `window` reads before this turn). */
  recall: { chance: number; window: number };
  /** Chance that a prompt states a new constraint (the first one always does), and that a turn depends on each stated one. */
  constraints: { chance: number; check: number };
  /** Share of idle gaps that are long (10–60 minutes: the provider's cache has expired). */
  longIdle?: number;
}

const RECALL = { chance: 0.06, window: 60 };
const CONSTRAINTS = { chance: 0.03, check: 0.15 };

export const PROFILES: Record<string, Profile> = {
  coding: {
    turns: 200,
    system: 6_000,
    model: { context: 128_000, maxOutput: 16_000 },
    read: { median: 1_800, max: 12_000 },
    bash: { median: 900, max: 6_000, bigChance: 0.08, big: [6_000, 12_000] },
    mix: { read: 35, search: 15, edit: 22, bash: 20, todo: 6, skill: 2 },
    longTurn: 0.2,
    recall: RECALL,
    constraints: CONSTRAINTS,
  },
  exploring: {
    turns: 200,
    system: 6_000,
    model: { context: 128_000, maxOutput: 16_000 },
    read: { median: 3_000, max: 12_000 },
    bash: { median: 700, max: 5_000, bigChance: 0.05, big: [5_000, 10_000] },
    mix: { read: 50, search: 22, edit: 12, bash: 12, todo: 3, skill: 1 },
    longTurn: 0.25,
    recall: { chance: 0.1, window: 80 },
    constraints: CONSTRAINTS,
  },
  testing: {
    turns: 200,
    system: 6_000,
    model: { context: 128_000, maxOutput: 16_000 },
    read: { median: 1_500, max: 10_000 },
    bash: { median: 1_500, max: 8_000, bigChance: 0.15, big: [8_000, 14_000] },
    mix: { read: 25, search: 10, edit: 25, bash: 35, todo: 4, skill: 1 },
    longTurn: 0.2,
    recall: RECALL,
    constraints: CONSTRAINTS,
  },
  local: {
    turns: 200,
    system: 3_500,
    model: { context: 32_768, maxOutput: 8_192 },
    read: { median: 700, max: 3_000 },
    bash: { median: 400, max: 2_000, bigChance: 0.05, big: [2_000, 3_500] },
    mix: { read: 35, search: 15, edit: 22, bash: 20, todo: 6, skill: 2 },
    longTurn: 0.1,
    recall: RECALL,
    constraints: CONSTRAINTS,
  },
  claude: {
    turns: 200,
    system: 8_000,
    model: { context: 200_000, maxOutput: 64_000 },
    read: { median: 2_500, max: 12_000 },
    bash: { median: 1_000, max: 6_000, bigChance: 0.1, big: [6_000, 15_000] },
    mix: { read: 35, search: 15, edit: 22, bash: 20, todo: 6, skill: 2 },
    longTurn: 0.25,
    recall: { chance: 0.08, window: 60 },
    constraints: CONSTRAINTS,
    longIdle: 0.25,
  },
  large: {
    turns: 200,
    system: 7_000,
    model: { context: 400_000, maxOutput: 128_000 },
    read: { median: 8_000, max: 20_000 },
    bash: { median: 1_200, max: 8_000, bigChance: 0.12, big: [10_000, 20_000] },
    mix: { read: 40, search: 15, edit: 18, bash: 20, todo: 5, skill: 2 },
    longTurn: 0.25,
    recall: { chance: 0.08, window: 60 },
    constraints: CONSTRAINTS,
    longIdle: 0.3,
  },
};

/** The traces shipped in traces/: file name → profile and seed. */
export const SHIPPED: { file: string; profile: keyof typeof PROFILES; seed: number; description: string }[] = [
  { file: "coding-128k.jsonl", profile: "coding", seed: 1, description: "200 turns of mixed coding work (reads, searches, edits, test runs) on a 128k model" },
  { file: "exploring-128k.jsonl", profile: "exploring", seed: 2, description: "200 turns reading a large codebase: many big reads, few edits, 128k model" },
  { file: "testing-128k.jsonl", profile: "testing", seed: 3, description: "200 turns of edit/test cycles with frequent long test logs, 128k model" },
  { file: "local-32k.jsonl", profile: "local", seed: 4, description: "200 turns of small coding tasks on a 32k local model (smaller outputs)" },
  { file: "claude-200k.jsonl", profile: "claude", seed: 5, description: "200 turns of coding on a 200k model with 64k output, long pauses that expire the cache" },
  { file: "large-400k.jsonl", profile: "large", seed: 6, description: "200 turns on a 400k model: reads of 5–20k tokens, long logs, long pauses" },
];

/** Generates one trace. Same profile and seed → same trace. */
export function generateTrace(name: string, profile: Profile, seed: number, description?: string): Trace {
  const rnd = prng(seed);
  const between = (lo: number, hi: number) => Math.round(lo + (hi - lo) * rnd());
  // Log-normal around a median, clamped: file and log sizes have long tails.
  const logNormal = (median: number, sigma: number, min: number, max: number) => {
    const u = Math.max(1e-9, rnd());
    const v = rnd();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.round(Math.min(max, Math.max(min, median * Math.exp(sigma * z))));
  };
  const pick = <K extends string>(weights: Record<K, number>): K => {
    const entries = Object.entries(weights) as [K, number][];
    let r = rnd() * entries.reduce((n, [, w]) => n + w, 0);
    for (const [k, w] of entries) {
      r -= w;
      if (r <= 0) return k;
    }
    return (entries[0] as [K, number])[0];
  };

  /** Read ids before the current turn, oldest first. */
  const reads: string[] = [];
  let turnReads: string[] = [];
  const stated: string[] = [];
  const toolStep = (id: () => string): TraceStep => {
    let output = between(40, 350); // reasoning / text and the call's arguments
    const kind = pick(profile.mix);
    const tools: TraceTool[] = [];
    const calls = kind === "read" || kind === "search" ? (rnd() < 0.25 ? between(2, 3) : 1) : 1;
    for (let i = 0; i < calls; i++) {
      switch (kind) {
        case "read":
          tools.push({ tool: "read", tokens: logNormal(profile.read.median, 0.9, 120, profile.read.max), id: id() });
          break;
        case "search":
          tools.push({ tool: rnd() < 0.6 ? "grep" : "glob", tokens: logNormal(350, 0.9, 40, 3_000) });
          break;
        case "edit":
          output += logNormal(450, 0.8, 60, 4_000); // old and new strings are written by the model
          tools.push({ tool: rnd() < 0.85 ? "edit" : "write", tokens: between(30, 250) });
          break;
        case "bash": {
          const big = rnd() < profile.bash.bigChance;
          tools.push({ tool: "bash", tokens: big ? between(...profile.bash.big) : logNormal(profile.bash.median, 0.8, 30, profile.bash.max) });
          break;
        }
        case "todo":
          tools.push({ tool: "todowrite", tokens: between(80, 400) });
          break;
        case "skill":
          tools.push({ tool: "skill", tokens: between(1_000, 3_000) });
          break;
      }
    }
    const step: TraceStep = { output, tools };
    if (reads.length && rnd() < profile.recall.chance) {
      const recent = reads.slice(-profile.recall.window);
      step.needs = [recent[Math.floor(rnd() * recent.length)] as string];
    }
    return step;
  };

  const turns: TraceTurn[] = [];
  const longIdle = profile.longIdle ?? 0.15;
  for (let t = 0; t < profile.turns; t++) {
    let user = rnd() < 0.06 ? between(800, 3_000) : logNormal(90, 0.8, 8, 600); // sometimes a pasted log
    const r = rnd();
    const idle = t === 0 ? 0 : r < 0.85 - longIdle ? between(5, 120) : r < 0.85 ? between(120, 600) : between(600, 3_600);
    const turn: TraceTurn = { user, idle, steps: [] };
    const checks = stated.filter(() => rnd() < profile.constraints.check);
    if (checks.length) turn.checks = checks;
    if (t === 0 || rnd() < profile.constraints.chance) {
      // A rule stated in passing ("never touch config/", "answer in English"): a sentence of the prompt.
      turn.constraint = `c${stated.length}`;
      stated.push(turn.constraint);
      user += between(15, 60);
      turn.user = user;
    }
    const long = rnd() < profile.longTurn;
    const n = long ? between(10, 25) : rnd() < 0.2 ? between(0, 1) : between(2, 8);
    let k = 0;
    turnReads = [];
    const id = () => {
      const x = `r${t}.${k++}`;
      turnReads.push(x);
      return x;
    };
    for (let i = 0; i < n; i++) turn.steps.push(toolStep(id));
    turn.steps.push({ output: logNormal(220, 0.7, 20, 1_500), tools: [] }); // the final answer
    reads.push(...turnReads);
    turns.push(turn);
  }
  return { header: { name, description, model: profile.model, system: profile.system, seed }, turns };
}
