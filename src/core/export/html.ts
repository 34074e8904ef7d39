import { errorMessage } from "../errors";
import type { AssistantMessage, MessageWithParts, Part, Session, ToolPart } from "../schema";
import { toolOutcome } from "../conversation/tool-outcome";
import { conversationView } from "../conversation/view";
import { HTML_EXPORT_CSS } from "./html-style";
import { markdownHtml, SAFE_IMAGE } from "./message-markdown";
import { costWords, sessionTotals, unpricedSteps } from "./totals";

/** Options of the HTML export. */
export interface HtmlOptions {
  /** Include reasoning (collapsed). Default true. */
  thinking?: boolean;
  /** Renders a timestamp; defaults to the locale string. */
  formatDate?: (ms: number) => string;
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

const num = (n: number): string => Math.round(n).toLocaleString("en");

function usageLine(m: MessageWithParts): string {
  const { tokens: t, cost } = sessionTotals([m]);
  const cache = t.cache.read || t.cache.write ? ` · cache ${num(t.cache.read)} read / ${num(t.cache.write)} write` : "";
  return `${num(t.input)} in · ${num(t.output)} out${t.reasoning ? ` · ${num(t.reasoning)} reasoning` : ""}${cache} · ${costWords(cost, unpricedSteps([m])).long}`;
}

function assistantMeta(info: AssistantMessage, m: MessageWithParts): string {
  const bits = [info.agent, `${info.providerID}/${info.modelID}`];
  if (info.time.completed !== undefined) bits.push(`${((info.time.completed - info.time.created) / 1000).toFixed(1)}s`);
  bits.push(usageLine(m));
  return escapeHtml(bits.join(" · "));
}

function toolCard(p: ToolPart): string {
  const s = p.state;
  const title = (s.status === "completed" || s.status === "running") && s.title ? ` ${escapeHtml(s.title)}` : "";
  const body = [`<h3>Input</h3><pre>${escapeHtml(JSON.stringify(s.input, null, 2) ?? "{}")}</pre>`];
  if (s.status === "completed") {
    body.push(`<h3>Output</h3><pre>${escapeHtml(s.output)}</pre>`);
    if (s.time.compacted) body.push(`<p class="note">This output was later cleared from the model's context.</p>`);
    for (const a of s.attachments ?? []) body.push(fileLine(a.mime, a.filename, a.url));
  } else if (s.status === "error") body.push(`<h3>Error</h3><pre class="error">${escapeHtml(s.error)}</pre>`);
  // The card's words and colour: "exit 1" in red for a command that failed, "stopped", "timed out".
  const outcome = toolOutcome(s);
  return `<details class="tool status-${outcome.tone}"><summary><span class="tool-name">${escapeHtml(p.tool)}</span>${title} <span class="status">${escapeHtml(outcome.label)}</span></summary>${body.join("")}</details>`;
}

function fileLine(mime: string, filename: string | undefined, url: string): string {
  const label = `<p class="file">Attached: ${escapeHtml(filename ?? "file")} (${escapeHtml(mime)})</p>`;
  if (!SAFE_IMAGE.test(url)) return label;
  return `${label}<img class="attachment" alt="${escapeHtml(filename ?? "attachment")}" src="${escapeHtml(url)}">`;
}

function partHtml(p: Part, role: "user" | "assistant", opts: HtmlOptions): string {
  switch (p.type) {
    case "text":
      if (p.synthetic || p.text.trim() === "") return "";
      // What a person typed reads as typed (as on screen); an answer's markdown is rendered, its headings under the message's.
      return role === "user" ? `<div class="text">${escapeHtml(p.text)}</div>` : `<div class="md">${markdownHtml(p.text, 3, p.id)}</div>`;
    case "reasoning":
      if (opts.thinking === false || p.text.trim() === "") return "";
      return `<details class="reasoning"><summary>Thinking</summary><div class="text">${escapeHtml(p.text)}</div></details>`;
    case "tool":
      return toolCard(p);
    case "file":
      return fileLine(p.mime, p.filename, p.url);
    case "subtask":
      return `<p class="note">Subtask for ${escapeHtml(p.agent)}: ${escapeHtml(p.description)}</p>`;
    case "compaction":
      return `<p class="note">Asked for a summary of the conversation so far.</p>`;
    case "patch":
      return p.files.length ? `<p class="note">Changed: ${escapeHtml(p.files.join(", "))}</p>` : "";
    default:
      return "";
  }
}

function messageHtml(m: MessageWithParts, opts: HtmlOptions): string {
  const info = m.info;
  const head =
    info.role === "user"
      ? `<h2>User</h2>`
      : `<h2>${info.summary ? "Summary" : "Assistant"}</h2><p class="meta">${assistantMeta(info, m)}</p>`;
  const error = info.role === "assistant" && info.error ? `<p class="error">${escapeHtml(errorMessage(info.error))}</p>` : "";
  return `<article class="${info.role}">${head}${m.parts.map((p) => partHtml(p, info.role, opts)).join("")}${error}</article>`;
}

/**
 * A self-contained HTML page showing the session offline: inline CSS only, no
 * scripts (a Content-Security-Policy forbids them too), every piece of text
 * escaped; an answer's markdown rendered with raw HTML as text, links only to
 * web and mail addresses and images only inline; tools as collapsible
 * cards, usage and cost per assistant message. Messages hidden by a soft
 * revert are left out.
 */
export function sessionHtml(file: { info: Session; messages: readonly MessageWithParts[] }, opts: HtmlOptions = {}): string {
  const date = opts.formatDate ?? ((ms: number) => new Date(ms).toLocaleString());
  const { info } = file;
  const visible = conversationView(info, [...file.messages]).shown;
  const totals = sessionTotals(visible);
  const meta = [
    info.id,
    `created ${date(info.time.created)}`,
    `updated ${date(info.time.updated)}`,
    `${num(totals.tokens.input + totals.tokens.cache.read + totals.tokens.cache.write)} tokens in · ${num(totals.tokens.output + totals.tokens.reasoning)} out · ${costWords(totals.cost, unpricedSteps(visible)).long}`,
  ];
  return [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<meta name="color-scheme" content="light dark">`,
    `<title>${escapeHtml(info.title)}</title>`,
    `<style>${HTML_EXPORT_CSS}</style></head><body>`,
    `<header><h1>${escapeHtml(info.title)}</h1><p class="meta">${escapeHtml(meta.join(" · "))}</p></header>`,
    `<main>${visible.map((m) => messageHtml(m, opts)).join("\n")}</main>`,
    `<footer>Exported from tabcode.</footer>`,
    "</body></html>",
    "",
  ].join("\n");
}
