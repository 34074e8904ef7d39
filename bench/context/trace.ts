/**
 * The context-benchmark trace format (JSON lines; see README.md): a header
 * line with the model window, then one line per turn with token sizes only.
 * Validated with zod when read, since traces may come from anyone.
 */
import { z } from "zod";

/** One tool call of a step: its name and the size of its result as sent to the model. */
export const TraceTool = z.object({
  tool: z.string().min(1),
  tokens: z.number().int().nonnegative(),
  /** A name later steps use to say they need this output's content again (`steps[].needs`). */
  id: z.string().min(1).optional(),
});
export type TraceTool = z.infer<typeof TraceTool>;

/** One model call: what it wrote (text, reasoning that is sent back, tool-call arguments) and the tools it called. */
export const TraceStep = z.object({
  output: z.number().int().nonnegative(),
  tools: z.array(TraceTool).default([]),
  /**
   * Ids of earlier tool outputs whose content this step needs. When one is no
   * longer in the request (pruned, or summarised away), the model first reads
   * it again: one more step with the same tool call and output (a re-read).
   */
  needs: z.array(z.string().min(1)).optional(),
});
export type TraceStep = z.infer<typeof TraceStep>;

/** One turn: the user's prompt, the seconds the session sat idle before it, and the steps that answered it. */
export const TraceTurn = z.object({
  user: z.number().int().nonnegative(),
  idle: z.number().nonnegative().default(0),
  steps: z.array(TraceStep).min(1),
  /** This prompt states a constraint ("never touch config/"), named by this id. */
  constraint: z.string().min(1).optional(),
  /** Constraints (ids) this turn depends on: each one missing from the turn's first request is a violation. */
  checks: z.array(z.string().min(1)).optional(),
});
export type TraceTurn = z.infer<typeof TraceTurn>;

/** The first line. */
export const TraceHeader = z.object({
  /** A short name for tables (defaults to the file name). */
  name: z.string().optional(),
  description: z.string().optional(),
  model: z.object({
    /** Context window in tokens. */
    context: z.number().int().positive(),
    /** The model's output limit (OpenCode caps what it requests at 32k). */
    maxOutput: z.number().int().positive(),
    /** A separate input limit, when the model has one. */
    input: z.number().int().positive().optional(),
  }),
  /** System prompt + tool definitions: the fixed head of every request. */
  system: z.number().int().nonnegative().default(6_000),
  /** Generator seed, for shipped synthetic traces. */
  seed: z.number().int().optional(),
});
export type TraceHeader = z.infer<typeof TraceHeader>;

export interface Trace {
  header: TraceHeader & { name: string };
  turns: TraceTurn[];
}

export type ParseResult = { ok: true; value: Trace } | { ok: false; error: string };

/** Parses a JSON-lines trace. Blank lines and lines starting with `//` are ignored. */
export function parseTrace(text: string, fallbackName = "trace"): ParseResult {
  const lines = text.split("\n").map((l, i) => ({ l: l.trim(), n: i + 1 }));
  const rows = lines.filter(({ l }) => l.length > 0 && !l.startsWith("//"));
  const first = rows[0];
  if (!first) return { ok: false, error: "empty trace" };
  const json = (l: string, n: number): { ok: true; value: unknown } | { ok: false; error: string } => {
    try {
      return { ok: true, value: JSON.parse(l) };
    } catch (e) {
      return { ok: false, error: `line ${n}: ${e instanceof Error ? e.message : String(e)}` };
    }
  };
  const h = json(first.l, first.n);
  if (!h.ok) return h;
  const header = TraceHeader.safeParse(h.value);
  if (!header.success) return { ok: false, error: `line ${first.n} (header): ${header.error.message}` };
  const turns: TraceTurn[] = [];
  for (const { l, n } of rows.slice(1)) {
    const j = json(l, n);
    if (!j.ok) return j;
    const t = TraceTurn.safeParse(j.value);
    if (!t.success) return { ok: false, error: `line ${n}: ${t.error.message}` };
    turns.push(t.data);
  }
  if (turns.length === 0) return { ok: false, error: "no turns" };
  return { ok: true, value: { header: { ...header.data, name: header.data.name ?? fallbackName }, turns } };
}

/** Serialises a trace: the header, then one compact line per turn. */
export function formatTrace(trace: Trace): string {
  const step = (s: TraceStep) => ({ output: s.output, ...(s.tools.length ? { tools: s.tools } : {}), ...(s.needs?.length ? { needs: s.needs } : {}) });
  const turn = (t: TraceTurn) =>
    JSON.stringify({ user: t.user, ...(t.idle ? { idle: t.idle } : {}), ...(t.constraint ? { constraint: t.constraint } : {}), ...(t.checks?.length ? { checks: t.checks } : {}), steps: t.steps.map(step) });
  return `${[JSON.stringify(trace.header), ...trace.turns.map(turn)].join("\n")}\n`;
}

/** Totals for a quick look at a trace. */
export function traceStats(trace: Trace): { turns: number; steps: number; tools: number; toolTokens: number; written: number; needs: number; constraints: number; checks: number } {
  let steps = 0;
  let tools = 0;
  let toolTokens = 0;
  let written = 0;
  let needs = 0;
  let constraints = 0;
  let checks = 0;
  for (const t of trace.turns) {
    written += t.user;
    if (t.constraint) constraints++;
    checks += t.checks?.length ?? 0;
    for (const s of t.steps) {
      steps++;
      needs += s.needs?.length ?? 0;
      written += s.output;
      tools += s.tools.length;
      for (const c of s.tools) toolTokens += c.tokens;
    }
  }
  return { turns: trace.turns.length, steps, tools, toolTokens, written, needs, constraints, checks };
}
