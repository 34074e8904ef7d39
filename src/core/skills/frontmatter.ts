/**
 * A small YAML-frontmatter parser for SKILL.md files: a `---` fenced block of
 * `key: value` lines. Supports plain, single- and double-quoted scalars
 * (multi-line too), `>` and `|` block scalars (with `-`/`+` chomping),
 * comments, one level of nested maps and `- item` lists. Anything else is an
 * error value, never a throw.
 */

export type FrontmatterValue = string | string[] | { [key: string]: FrontmatterValue };

export type FrontmatterResult =
  | { ok: true; data: Record<string, FrontmatterValue>; body: string }
  | { ok: false; error: string };

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Frontmatter holds a few short fields; a bigger block is refused (keeps parsing cheap). */
const MAX_FRONTMATTER = 16 * 1024;
const KEY = /^([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*:(?:\s+(.*))?$/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function stripComment(s: string): string {
  const i = s.search(/\s#/);
  return (i === -1 ? s : s.slice(0, i)).trim();
}

function unescapeDouble(s: string): string {
  const map: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", "/": "/", "0": "\0", " ": " " };
  return s.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e: string) =>
    e.length > 1 ? String.fromCharCode(Number.parseInt(e.slice(1), 16)) : (map[e] ?? e),
  );
}

/** A quoted scalar starting on `first`, possibly continued on following lines; returns lines used. */
function quoted(first: string, rest: string[]): Parsed<{ text: string; used: number }> {
  const q = first[0];
  let text = first.slice(1);
  let used = 0;
  const closing = q === "'" ? /^((?:[^']|'')*)'(.*)$/ : /^((?:[^"\\]|\\.)*)"(.*)$/;
  for (;;) {
    const m = closing.exec(text);
    if (m) {
      if (stripComment(m[2] ?? "") !== "") return { ok: false, error: "unexpected text after a quoted value" };
      const inner = m[1] ?? "";
      return { ok: true, value: { text: q === "'" ? inner.replaceAll("''", "'") : unescapeDouble(inner), used } };
    }
    const next = rest[used];
    if (next === undefined) return { ok: false, error: "unclosed quoted value" };
    text += next.trim() === "" ? "\n" : ` ${next.trim()}`;
    used++;
  }
}

/** Lines of a block belonging to a key at `indent` (more indented, or blank). */
function blockLines(lines: string[], from: number, indent: number): string[] {
  const out: string[] = [];
  for (let i = from; i < lines.length; i++) {
    const l = lines[i] ?? "";
    if (l.trim() !== "" && indentOf(l) <= indent) break;
    out.push(l);
  }
  while (out.length && (out[out.length - 1] ?? "").trim() === "") out.pop();
  return out;
}

function blockScalar(header: string, lines: string[]): string {
  const fold = header.startsWith(">");
  const chomp = header.includes("-") ? "strip" : header.includes("+") ? "keep" : "clip";
  const min = Math.min(...lines.filter((l) => l.trim()).map(indentOf));
  const body = lines.map((l) => (l.trim() ? l.slice(min) : ""));
  let text: string;
  if (!fold) text = body.join("\n");
  else {
    text = "";
    body.forEach((l, i) => {
      if (i === 0) text = l;
      else if (l === "") text += "\n";
      else text += text.endsWith("\n") || text === "" ? l : ` ${l}`;
    });
  }
  if (chomp === "strip") return text;
  return chomp === "keep" ? `${text}\n` : text ? `${text}\n` : "";
}

function parseMapping(lines: string[]): Parsed<Record<string, FrontmatterValue>> {
  const data: Record<string, FrontmatterValue> = {};
  const base = Math.min(...lines.filter((l) => l.trim() && !l.trim().startsWith("#")).map(indentOf));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    const m = indentOf(line) === base ? KEY.exec(line.trim()) : null;
    if (!m) return { ok: false, error: `line "${line.trim()}" is not a "key: value" pair` };
    const key = m[1] ?? "";
    if (Object.hasOwn(data, key)) return { ok: false, error: `duplicate key "${key}"` };
    if (key === "__proto__" || key === "constructor" || key === "prototype") return { ok: false, error: `unsupported key "${key}"` };
    const raw = (m[2] ?? "").trim();
    const block = blockLines(lines, i + 1, indentOf(line));
    if (raw.startsWith('"') || raw.startsWith("'")) {
      const q = quoted(raw, lines.slice(i + 1));
      if (!q.ok) return { ok: false, error: `${key}: ${q.error}` };
      data[key] = q.value.text;
      i += q.value.used;
    } else if (/^[>|][+-]?\d?\s*(#.*)?$/.test(raw)) {
      data[key] = blockScalar(raw, block);
      i += block.length;
    } else if (stripComment(raw) === "" && block.some((l) => l.trim())) {
      const items = block.filter((l) => l.trim() && !l.trim().startsWith("#"));
      if (items.every((l) => l.trim().startsWith("- ") || l.trim() === "-")) data[key] = items.map((l) => stripComment(l.trim().slice(1)));
      else {
        const nested = parseMapping(block);
        if (!nested.ok) return { ok: false, error: `${key}: ${nested.error}` };
        data[key] = nested.value;
      }
      i += block.length;
    } else {
      const more = block.map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
      data[key] = [stripComment(raw), ...more].filter((s) => s).join(" ");
      i += block.length;
    }
  }
  return { ok: true, value: data };
}

/** Splits `---` frontmatter from a Markdown document and parses it. */
export function parseFrontmatter(source: string): FrontmatterResult {
  const text = source.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lines = text.split("\n");
  if ((lines[0] ?? "").trimEnd() !== "---") return { ok: false, error: "missing frontmatter (the file must start with ---)" };
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (end === -1) return { ok: false, error: "unclosed frontmatter (no closing ---)" };
  const head = lines.slice(1, end);
  if (head.join("\n").length > MAX_FRONTMATTER) return { ok: false, error: `frontmatter is larger than ${MAX_FRONTMATTER / 1024} KB` };
  const body = lines.slice(end + 1).join("\n");
  if (head.every((l) => l.trim() === "" || l.trim().startsWith("#"))) return { ok: true, data: {}, body };
  const parsed = parseMapping(head);
  return parsed.ok ? { ok: true, data: parsed.value, body } : { ok: false, error: parsed.error };
}
