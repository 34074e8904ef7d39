/**
 * Runs every policy over every trace at both cache prices and renders the
 * benchmark's tables (Markdown, so they paste into issues as they are).
 */
import { opencode2Policy } from "../../src/core/compaction/opencode2-policy";
import { type ContextPolicy, keepLastN, noCompaction, opencodePolicy, tabcodePolicy } from "../../src/core/compaction/policy";
import { providerCompactionPolicy } from "../../src/core/compaction/provider-policy";
import type { PrepRow } from "./prep";
import { type SimResult, simulate } from "./simulate";
import type { Trace } from "./trace";
import { traceStats } from "./trace";

/** A provider's prompt-cache prices, relative to an uncached input token. */
export interface Pricing {
  label: string;
  /** A cached (read) token. */
  cachePrice: number;
  /** An uncached token, which the provider writes to its cache. */
  writePrice: number;
}

/**
 * OpenAI-style caches (automatic, writes free) with cached input at 10 % and
 * at 50 % of uncached input, and Anthropic's (writes at 1.25×, reads at 10 %,
 * 5-minute cache).
 */
export const PRICINGS: readonly Pricing[] = [
  { label: "@10 %", cachePrice: 0.1, writePrice: 1 },
  { label: "@50 %", cachePrice: 0.5, writePrice: 1 },
  { label: "Anthropic", cachePrice: 0.1, writePrice: 1.25 },
];
/** What the target asks of ours: billed (re-reads included) ≤ 0.85 × the better OpenCode baseline's at every pricing. */
export const TARGET_RATIO = 0.85;
/** The OpenCode baselines: ours is compared with the better of the two. */
export const BASELINES = ["opencode", "opencode-2"] as const;

/** Ours without the user's earlier words after each summary (not what the app runs): what they cost. */
const withoutUserWords = (): ContextPolicy => {
  const p = tabcodePolicy();
  return { name: "tabcode-no-words", pins: true, decide: (input) => p.decide(input) };
};

/** `tabcode` is the configuration the app runs: the policy, pinned context and the user's earlier words after every summary. */
export const POLICIES: ContextPolicy[] = [noCompaction, keepLastN(30), opencodePolicy, opencode2Policy(), providerCompactionPolicy(), tabcodePolicy(), withoutUserWords()];

/** How the "provider compaction" row is modelled (printed with the tables). */
export const PROVIDER_COMPACTION_ASSUMPTIONS = `"provider compaction" models OpenAI Responses \`context_management: [{type: "compaction", compact_threshold}]\` and Anthropic's \`compact_20260112\` edit with the threshold at tabcode's own compaction point. Assumptions: the compaction pass is billed as input over the whole context, served from the cache like the previous request (Anthropic reports it as its own usage iteration; OpenAI does not itemise it), plus the summary as output; the summary is the size of the others (3 % of what it replaces, 1k–4k tokens; OpenAI's is encrypted, so its real size is unknown) and, like them, keeps each constraint with a 70 % chance; no prune and no verbatim tail (the provider decides what it keeps); tabcode's pinned constraints stay in the system prompt, which the provider does not compact. What is lost and cannot be seen: the summary is opaque, so a dropped output shows up only as a re-read and a dropped rule only when the model breaks it.`;

export interface TraceReport {
  trace: Trace;
  /** policy name → results at PRICINGS, in order. */
  results: Map<string, SimResult[]>;
}

export function runTrace(trace: Trace, policies: ContextPolicy[] = POLICIES): TraceReport {
  const results = new Map<string, SimResult[]>();
  for (const p of policies) results.set(p.name, PRICINGS.map(({ cachePrice, writePrice }) => simulate(trace, p, { cachePrice, writePrice })));
  return { trace, results };
}

/** The better OpenCode baseline at pricing `i` (the one that bills less). */
export function bestBaseline(r: TraceReport, i: number): SimResult | undefined {
  const xs = BASELINES.map((b) => r.results.get(b)?.[i]).filter((x): x is SimResult => x !== undefined);
  return xs.reduce<SimResult | undefined>((best, x) => (best === undefined || x.billed < best.billed ? x : best), undefined);
}

/**
 * Whether ours met the targets on a trace, at every pricing: billed (re-reads
 * included) ≤ TARGET_RATIO × the better OpenCode baseline, no violated
 * constraint, no more summaries than that baseline, never over the window.
 */
export function targetsMet(r: TraceReport): { ok: boolean; why: string[] } {
  const ours = r.results.get("tabcode");
  if (!ours) return { ok: false, why: ["missing policy"] };
  const why: string[] = [];
  PRICINGS.forEach((pricing, i) => {
    const a = ours[i];
    const b = bestBaseline(r, i);
    if (!a || !b) return;
    if (a.billed > TARGET_RATIO * b.billed) why.push(`billed ${(a.billed / b.billed).toFixed(3)} × ${b.policy} ${pricing.label}`);
    if (a.summaries > b.summaries) why.push(`${a.summaries} summaries > ${b.policy}'s ${b.summaries} ${pricing.label}`);
    if (a.violations) why.push(`${a.violations} constraint violations ${pricing.label}`);
    if (a.exceeded) why.push(`over the window ${a.exceeded}× ${pricing.label}`);
  });
  return { ok: why.length === 0, why };
}

const M = (n: number) => `${(n / 1e6).toFixed(2)} M`;
const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
/** "a" when both prices agree, else "a / b". */
const both = (xs: number[]) => (xs.every((x) => x === xs[0]) ? String(xs[0]) : xs.join(" / "));

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

export function renderTrace(r: TraceReport): string {
  const { header } = r.trace;
  const st = traceStats(r.trace);
  const rows: string[][] = [];
  for (const [name, res] of r.results) {
    const ratio = (i: number) => {
      const b = bestBaseline(r, i);
      return b ? `${((res[i]?.billed ?? 0) / b.billed).toFixed(3)}` : "–";
    };
    const exceeded = res.map((x) => x.exceeded);
    const first = res.map((x) => x.firstExceeded).find((x) => x !== undefined);
    rows.push([
      name,
      ...PRICINGS.flatMap((_, i) => [M(res[i]?.billed ?? 0), ratio(i)]),
      both(res.map((x) => x.rereads)),
      both(res.map((x) => x.violations)),
      both(res.map((x) => x.summaries)),
      both(res.map((x) => x.prunes)),
      k(Math.max(...res.map((x) => x.peak))),
      exceeded.some((x) => x > 0) ? `yes: ${both(exceeded)}, first at turn ${first}` : "no",
    ]);
  }
  const title = `### ${header.name}: ${header.description ?? ""}\n${st.turns} turns, ${st.steps} steps, ${st.tools} tool calls, ${M(st.toolTokens)} tokens of tool output, ${M(st.written)} written, ${st.needs} later needs of an earlier output, ${st.constraints} constraints checked ${st.checks} times; window ${k(header.model.context)}, max output ${k(header.model.maxOutput)}, system + tools ${k(header.system)}.`;
  const head = ["policy", ...PRICINGS.flatMap((p) => [`billed ${p.label}`, "× best OC"]), "re-reads", "violations", "summaries", "prunes", "peak", "over the window"];
  const t = table(head, rows);
  const met = targetsMet(r);
  return `${title}\n\n${t}\n\nTargets (tabcode ≤ ${TARGET_RATIO} × the better OpenCode baseline at every pricing, re-reads included; 0 violations; no more summaries; never over the window): ${met.ok ? "met" : `NOT met — ${met.why.join("; ")}`}.\n`;
}

export function renderPrep(rows: PrepRow[]): string {
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  return `### Request preparation per step (activePath + filterCompacted + measureRequest + policy + toModelMessages; js-tiktoken o200k_base; warm = median of 15)\n\n${table(
    ["stored messages", "history", "messages sent", "request tokens", "first (counts all)", "warm (counts nothing)", "+1 message", "texts counted for +1"],
    rows.map((r) => [String(r.messages), r.compacted ? "compacted" : "all sent", String(r.sent), k(r.tokens), ms(r.coldMs), ms(r.warmMs), ms(r.newMessageMs), String(r.newTexts)]),
  )}\n`;
}
