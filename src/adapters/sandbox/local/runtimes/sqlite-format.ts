/**
 * Result rows as the sqlite3 shell prints them, mode by mode (list, csv,
 * json, line, column, box, table, markdown, tabs, quote), checked against the
 * real shell's output.
 */
import type { SqliteOutput } from "./sqlite-args";

export type Cell = { kind: "int" | "real" | "text" | "blob"; text: string } | { kind: "null" };

/** A REAL as the shell prints it (`%!.15g`: "1.0", "2.5e-07", "1.0e+20"). */
export function formatReal(x: number): string {
  if (Number.isNaN(x)) return "";
  if (!Number.isFinite(x)) return x > 0 ? "Inf" : "-Inf";
  if (x === 0) return "0.0";
  const [mant = "0", expText = "0"] = x.toExponential(14).split("e");
  const exp = Number(expText);
  const trim = (s: string) => {
    const t = s.includes(".") ? s.replace(/0+$/, "") : s;
    return t.endsWith(".") ? `${t}0` : t.includes(".") ? t : `${t}.0`;
  };
  if (exp < -4 || exp >= 15) {
    const sign = exp < 0 ? "-" : "+";
    return `${trim(mant)}e${sign}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  return trim(x.toFixed(Math.max(0, 14 - exp)));
}

function plain(c: Cell, out: SqliteOutput): string {
  return c.kind === "null" ? out.nullValue : c.text;
}

function csvField(s: string, sep: string): string {
  const needs = s.includes(sep) || [...s].some((ch) => {
    const n = ch.codePointAt(0) ?? 0;
    return n <= 32 || n >= 127 || ch === '"' || ch === "'" || ch === ",";
  });
  return needs ? `"${s.replace(/"/g, '""')}"` : s;
}

function jsonValue(c: Cell): string {
  if (c.kind === "null") return "null";
  if (c.kind === "int" || c.kind === "real") return c.text;
  return JSON.stringify(c.text);
}

function quoteValue(c: Cell): string {
  if (c.kind === "null") return "NULL";
  if (c.kind === "int" || c.kind === "real") return c.text;
  return `'${c.text.replace(/'/g, "''")}'`;
}

const width = (s: string): number => [...s].length;
const padRight = (s: string, w: number): string => s + " ".repeat(Math.max(0, w - width(s)));
const center = (s: string, w: number): string => {
  const left = Math.floor((w - width(s)) / 2);
  return padRight(" ".repeat(Math.max(0, left)) + s, w);
};

/** Modes that print a row as soon as it arrives. */
export function streamsRows(out: SqliteOutput): boolean {
  return !["column", "box", "table", "markdown", "json"].includes(out.mode);
}

/** One row in a streaming mode; `first` says whether a header goes before it. */
export function formatRow(cols: string[], row: Cell[], out: SqliteOutput, first: boolean): string {
  const sep = out.separator;
  switch (out.mode) {
    case "csv": {
      const head = first && out.headers ? `${cols.map((c) => csvField(c, sep)).join(sep)}\n` : "";
      return `${head}${row.map((c) => csvField(plain(c, out), sep)).join(sep)}\n`;
    }
    case "quote": {
      const head = first && out.headers ? `${cols.map((c) => `'${c}'`).join(",")}\n` : "";
      return `${head}${row.map(quoteValue).join(",")}\n`;
    }
    case "line": {
      const w = Math.max(5, ...cols.map(width));
      const body = cols.map((c, i) => `${" ".repeat(w - width(c))}${c} = ${plain(row[i] ?? { kind: "null" }, out)}\n`).join("");
      return first ? body : `\n${body}`;
    }
    default: {
      const head = first && out.headers ? `${cols.join(sep)}\n` : "";
      return `${head}${row.map((c) => plain(c, out)).join(sep)}\n`;
    }
  }
}

/** A whole result in a mode that needs every row first (column widths, JSON array). */
export function formatTable(cols: string[], rows: Cell[][], out: SqliteOutput): string {
  if (!rows.length) return "";
  if (out.mode === "json") {
    const objs = rows.map((r) => `{${cols.map((c, i) => `${JSON.stringify(c)}:${jsonValue(r[i] ?? { kind: "null" })}`).join(",")}}`);
    return `[${objs.join(",\n")}]\n`;
  }
  const text = rows.map((r) => r.map((c) => plain(c, out)));
  const showHead = out.mode !== "column" || out.headers;
  const w = cols.map((c, i) => Math.max(showHead ? width(c) : 0, ...text.map((r) => width(r[i] ?? ""))));
  const lines: string[] = [];
  if (out.mode === "column") {
    if (showHead) {
      lines.push(cols.map((c, i) => padRight(c, w[i] ?? 0)).join("  "));
      lines.push(w.map((n) => "-".repeat(n)).join("  "));
    }
    for (const r of text) lines.push(r.map((s, i) => padRight(s, w[i] ?? 0)).join("  "));
    return `${lines.join("\n")}\n`;
  }
  const row = (cells: string[], l: string, m: string, r: string) => `${l}${cells.join(m)}${r}`;
  const rule = (l: string, m: string, r: string, h: string) => row(w.map((n) => h.repeat(n + 2)), l, m, r);
  const head = cols.map((c, i) => center(c, w[i] ?? 0));
  const body = text.map((r) => r.map((s, i) => padRight(s, w[i] ?? 0)));
  if (out.mode === "box") {
    lines.push(rule("┌", "┬", "┐", "─"), row(head, "│ ", " │ ", " │"), rule("├", "┼", "┤", "─"));
    for (const r of body) lines.push(row(r, "│ ", " │ ", " │"));
    lines.push(rule("└", "┴", "┘", "─"));
  } else if (out.mode === "table") {
    lines.push(rule("+", "+", "+", "-"), row(head, "| ", " | ", " |"), rule("+", "+", "+", "-"));
    for (const r of body) lines.push(row(r, "| ", " | ", " |"));
    lines.push(rule("+", "+", "+", "-"));
  } else {
    lines.push(row(head, "| ", " | ", " |"), rule("|", "|", "|", "-"));
    for (const r of body) lines.push(row(r, "| ", " | ", " |"));
  }
  return `${lines.join("\n")}\n`;
}

/** `.tables`: names in columns across 80 characters, column by column. */
export function formatNames(names: string[]): string {
  if (!names.length) return "";
  const max = Math.max(...names.map(width));
  const perLine = Math.max(1, Math.floor(80 / (max + 2)));
  const rows = Math.ceil(names.length / perLine);
  const lines: string[] = [];
  for (let i = 0; i < rows; i++) {
    let line = "";
    for (let j = i; j < names.length; j += rows) line += `${j < rows ? "" : "  "}${padRight(names[j] ?? "", max)}`;
    lines.push(line);
  }
  return `${lines.join("\n")}\n`;
}
