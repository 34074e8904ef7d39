import type { Nodes } from "mdast";
import { toString as textOf } from "mdast-util-to-string";
import { parseMarkdown } from "../../core/util/parse-markdown";

/**
 * A message's markdown as it reads on screen, for search snippets: no heading marks, emphasis, backticks, link
 * targets, fences or table rules; blocks and table cells separated. Loaded with the first search (the parser
 * is the markdown pipeline's own, so it is usually fetched already).
 */

/** Blocks whose text is read as one run; cells and list items are blocks too, so their words never run together. */
const LEAF = new Set(["paragraph", "heading", "code", "html", "tableCell", "definition"]);

/** About this many characters around a match are parsed: a snippet never needs more, and a 30 KB answer is not parsed whole. */
const WINDOW = 1_500;

function readable(markdown: string): string {
  const tree = parseMarkdown(markdown);
  const out: string[] = [];
  const walk = (n: Nodes) => {
    if (LEAF.has(n.type)) {
      const t = textOf(n).trim();
      if (t) out.push(t);
    } else if ("children" in n) for (const c of n.children) walk(c as Nodes);
  };
  walk(tree);
  return out.join(" · ").replace(/\s+/g, " ");
}

/**
 * The readable text around `at` (an offset into `markdown`): the lines from a blank line before it, parsed as
 * markdown. When the window starts inside a code fence, it is parsed as code, as it is shown.
 */
export function readableAround(markdown: string, at: number): string {
  if (markdown.length <= WINDOW * 2) return readable(markdown);
  let start = Math.max(0, at - WINDOW);
  const blank = markdown.lastIndexOf("\n\n", at);
  if (blank >= start) start = blank + 2;
  else start = markdown.lastIndexOf("\n", start) + 1;
  let end = Math.min(markdown.length, Math.max(at, start) + WINDOW);
  const nl = markdown.indexOf("\n", end);
  end = nl < 0 ? markdown.length : nl;
  const open = openFence(markdown.slice(0, start));
  return readable(`${open ? `${open}\n` : ""}${markdown.slice(start, end)}`);
}

/**
 * The code fence still open at the end of `text` (its backticks or tildes), if any: a fence closes only with
 * the same character, at least as many, and nothing after them; a backtick fence's info string holds no
 * backtick. (Fences inside lists and quotes are not followed: a snippet's window rarely starts there.)
 */
export function openFence(text: string): string | undefined {
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!m) continue;
    const [, run = "", rest = ""] = m;
    if (open === undefined) {
      if (!(run[0] === "`" && rest.includes("`"))) open = run;
    } else if (run[0] === open[0] && run.length >= open.length && rest.trim() === "") open = undefined;
  }
  return open;
}
