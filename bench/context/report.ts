/**
 * Runs every policy over every trace at both cache prices and renders the
 * benchmark's tables (Markdown, so they paste into issues as they are).
 */
import { type ContextPolicy, keepLastN, noCompaction, opencodePolicy, tabcodePolicy } from "../../src/core/compaction/policy";
import type { PrepRow } from "./prep";
import { type SimResult, simulate } from "./simulate";
import type { Trace } from "./trace";
import { traceStats } from "./trace";

/** Cached input priced at 10 % and at 50 % of uncached input. */
export const CACHE_PRICES = [0.1, 0.5] as const;
/** What the target asks of ours: billed ≤ 0.85 × OpenCode's at both prices. */
export const TARGET_RATIO = 0.85;

export const POLICIES: ContextPolicy[] = [noCompaction, keepLastN(30), opencodePolicy, tabcodePolicy()];

export interface TraceReport {
  trace: Trace;
  /** policy name → results at CACHE_PRICES, in order. */
  results: Map<string, SimResult[]>;
}

export function runTrace(trace: Trace, policies: ContextPolicy[] = POLICIES): TraceReport {
  const results = new Map<string, SimResult[]>();
  for (const p of policies) results.set(p.name, CACHE_PRICES.map((cachePrice) => simulate(trace, p, { cachePrice })));
  return { trace, results };
}

/** Whether ours met the targets on a trace: cheaper by the target ratio at both prices, no more summaries, never over the window. */
export function targetsMet(r: TraceReport): { ok: boolean; why: string[] } {
  const ours = r.results.get("tabcode");
  const oc = r.results.get("opencode");
  if (!ours || !oc) return { ok: false, why: ["missing policy"] };
  const why: string[] = [];
  CACHE_PRICES.forEach((price, i) => {
    const a = ours[i];
    const b = oc[i];
    if (!a || !b) return;
    if (a.billed > TARGET_RATIO * b.billed) why.push(`billed ${(a.billed / b.billed).toFixed(3)} × OpenCode at ${price * 100} %`);
    if (a.summaries > b.summaries) why.push(`${a.summaries} summaries > OpenCode's ${b.summaries} at ${price * 100} %`);
    if (a.exceeded) why.push(`over the window ${a.exceeded}× at ${price * 100} %`);
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
  const base = r.results.get("opencode");
  const rows: string[][] = [];
  for (const [name, res] of r.results) {
    const ratio = (i: number) => {
      const b = base?.[i];
      return b ? `${((res[i]?.billed ?? 0) / b.billed).toFixed(3)}` : "–";
    };
    const exceeded = res.map((x) => x.exceeded);
    const first = res.map((x) => x.firstExceeded).find((x) => x !== undefined);
    rows.push([
      name,
      M(res[0]?.billed ?? 0),
      ratio(0),
      M(res[1]?.billed ?? 0),
      ratio(1),
      k(Math.max(...res.map((x) => x.peak))),
      both(res.map((x) => x.invalidations)),
      both(res.map((x) => x.summaries)),
      both(res.map((x) => x.prunes)),
      exceeded.some((x) => x > 0) ? `yes: ${both(exceeded)} requests, first at turn ${first}` : "no",
    ]);
  }
  const title = `### ${header.name}: ${header.description ?? ""}\n${st.turns} turns, ${st.steps} steps, ${st.tools} tool calls, ${M(st.toolTokens)} tokens of tool output, ${M(st.written)} written; window ${k(header.model.context)}, max output ${k(header.model.maxOutput)}, system + tools ${k(header.system)}.`;
  const t = table(["policy", "billed @10 %", "× opencode", "billed @50 %", "× opencode", "peak", "invalidations", "summaries", "prunes", "over the window"], rows);
  const met = targetsMet(r);
  return `${title}\n\n${t}\n\nTargets (tabcode ≤ ${TARGET_RATIO} × opencode at both prices, no more summaries, never over the window): ${met.ok ? "met" : `NOT met — ${met.why.join("; ")}`}.\n`;
}

export function renderPrep(rows: PrepRow[]): string {
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  return `### Request preparation per step (activePath + filterCompacted + measureRequest + policy + toModelMessages; js-tiktoken o200k_base; warm = median of 15)\n\n${table(
    ["stored messages", "history", "messages sent", "request tokens", "first (counts all)", "warm (counts nothing)", "+1 message", "texts counted for +1"],
    rows.map((r) => [String(r.messages), r.compacted ? "compacted" : "all sent", String(r.sent), k(r.tokens), ms(r.coldMs), ms(r.warmMs), ms(r.newMessageMs), String(r.newTexts)]),
  )}\n`;
}
