/**
 * A redaction pass before a session leaves the browser (share link or export
 * file): finds what looks like a secret in titles, messages, reasoning and
 * tool inputs/outputs — API-key and token shapes, private keys, the values of
 * `.env`-style assignments of keys/tokens/passwords — so the user can review
 * them and remove the ones they choose. Each distinct value is one finding;
 * removing it replaces every occurrence with `[redacted <kind>]`.
 */
import type { Part } from "../schema";
import { escapeRegex } from "../util/safe-regex";
import type { ExportFile } from "./types";

export interface Finding {
  /** The secret itself (kept in memory only, to replace it). */
  value: string;
  kind: string;
  /** A masked preview safe to show: the first 4 characters and the length. */
  preview: string;
  /** Where it was first seen, in words ("message 3, tool bash output"). */
  where: string;
  /** How many times it occurs. */
  count: number;
}

interface Shape {
  kind: string;
  re: RegExp;
  /** Capture group holding the secret (default: the whole match). */
  group?: number;
}

const SHAPES: Shape[] = [
  { kind: "private key", re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]{16,}?-----END [A-Z0-9 ]*PRIVATE KEY-----/g },
  { kind: "Anthropic API key", re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: "OpenAI-style API key", re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: "GitHub token", re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/g },
  { kind: "AWS access key", re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: "Google API key", re: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: "Slack token", re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: "Stripe key", re: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: "Hugging Face token", re: /\bhf_[A-Za-z0-9]{30,}/g },
  { kind: "Groq API key", re: /\bgsk_[A-Za-z0-9]{20,}/g },
  { kind: "xAI API key", re: /\bxai-[A-Za-z0-9]{20,}/g },
  { kind: "JSON Web Token", re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: "bearer token", re: /\bBearer\s+([A-Za-z0-9._~+/-]{20,}=*)/g, group: 1 },
  {
    kind: ".env secret",
    // Not the shell's working folders (`PWD`, `OLDPWD`: an `env` listing has them), and not a value that is a
    // path (`SSH_AUTH_SOCK=/tmp/…`, `XAUTHORITY=/home/…`: short segments of path characters; a base64 secret that
    // starts with "/" has a long one or a "+" or "="): removing `/workspace` broke every path in the file.
    re: /^[ \t]*(?:export[ \t]+)?(?!(?:OLD)?PWD[ \t]*[=:])[A-Za-z_][A-Za-z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD|CREDENTIALS?|AUTH)[A-Za-z0-9_]*[ \t]*[=:][ \t]*["']?(?!Bearer\b|Basic\b|\[redacted|(?:~|\.{1,2})?(?:\/[\w.@:-]{1,32})+\/?(?=[\s"'#]|$))([^\s"'#]{6,})/gim,
    group: 1,
  },
];

const PLACEHOLDER = /^\[redacted [^\]]+\]$/;

function mask(v: string): string {
  return `${v.slice(0, 4)}… (${v.length} characters)`;
}

/** Every string inside a part that could carry a secret, with where it is. */
function* texts(p: Part): Generator<[string, string]> {
  switch (p.type) {
    case "text":
      yield [p.text, "text"];
      break;
    case "reasoning":
      yield [p.text, "reasoning"];
      break;
    case "tool": {
      yield [JSON.stringify(p.state.input), `tool ${p.tool} input`];
      if (p.state.status === "completed") yield [p.state.output, `tool ${p.tool} output`];
      if (p.state.status === "error") yield [p.state.error, `tool ${p.tool} error`];
      if (p.state.status === "pending" && p.state.raw) yield [p.state.raw, `tool ${p.tool} input`];
      // Every string the call's metadata holds (its live output, the arguments that had streamed of a call stopped
      // before it ran, a diff…): the export and the link carry them all.
      if (p.state.status !== "pending") for (const text of stringsIn(p.state.metadata)) yield [text, `tool ${p.tool} details`];
      break;
    }
    case "file":
      if (p.mime.startsWith("text/")) yield [p.url, `file ${p.filename ?? ""}`.trim()];
      break;
    default:
      break;
  }
}

/** Every string inside a JSON value. */
function* stringsIn(v: unknown): Generator<string> {
  if (typeof v === "string") yield v;
  else if (Array.isArray(v)) for (const x of v) yield* stringsIn(x);
  else if (v && typeof v === "object") for (const x of Object.values(v)) yield* stringsIn(x);
}

function scanWith(shapes: readonly Shape[], text: string, where: string, found: Map<string, Finding>): void {
  for (const shape of shapes) {
    shape.re.lastIndex = 0;
    for (const m of text.matchAll(shape.re)) {
      const value = m[shape.group ?? 0];
      if (!value || PLACEHOLDER.test(value) || value.startsWith("[redacted")) continue;
      const known = found.get(value);
      if (known) known.count++;
      else found.set(value, { value, kind: shape.kind, preview: mask(value), where, count: 1 });
    }
  }
}

/** A literal value as a shape: the key set in Settings, whatever form it has. */
function literal(kind: string, value: string): Shape {
  return { kind, re: new RegExp(escapeRegex(value), "g") };
}

/**
 * The secrets a file seems to hold, in order of first appearance. `known` are values that are secrets
 * whatever their shape (the API key in Settings: a Mistral key, say, has no prefix to recognise).
 */
export function findSecrets(file: ExportFile, known: readonly string[] = []): Finding[] {
  const extra = known
    .map((k) => k.trim())
    .filter((k) => k.length >= 8)
    .map((k) => literal("your API key from Settings", k));
  const scan = (text: string, where: string, found: Map<string, Finding>) => scanWith([...extra, ...SHAPES], text, where, found);
  const found = new Map<string, Finding>();
  scan(file.info.title, "the title", found);
  file.messages.forEach((m, i) => {
    for (const p of m.parts) for (const [text, what] of texts(p)) scan(text, `message ${i + 1}, ${what}`, found);
  });
  if (file.workspace)
    for (const [path, f] of Object.entries(file.workspace)) if (f.encoding === "utf8") scan(f.data, `workspace file ${path}`, found);
  // A key that is a prefix of another (an OpenAI-shaped match inside a longer token) is the same secret.
  const all = [...found.values()];
  return all.filter((f) => !all.some((g) => g !== f && g.value.includes(f.value) && g.value.length > f.value.length));
}

/** The secrets of several files (Export all), each said with the title of the session it was first seen in. */
export function findSecretsInAll(files: readonly ExportFile[], known: readonly string[] = []): Finding[] {
  const found = new Map<string, Finding>();
  for (const file of files)
    for (const f of findSecrets(file, known)) {
      const seen = found.get(f.value);
      if (seen) seen.count += f.count;
      else found.set(f.value, { ...f, where: `“${file.info.title}”, ${f.where}` });
    }
  return [...found.values()];
}

function replaceAll(text: string, findings: readonly Finding[]): string {
  let out = text;
  for (const f of findings) out = out.split(f.value).join(`[redacted ${f.kind}]`);
  return out;
}

/** Replaces a JSON value's strings, keeping its shape. */
function redactValue(v: unknown, findings: readonly Finding[]): unknown {
  if (typeof v === "string") return replaceAll(v, findings);
  if (Array.isArray(v)) return v.map((x) => redactValue(x, findings));
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactValue(x, findings)]));
  return v;
}

/** A copy of the file with every occurrence of the chosen findings replaced; ids and structure are kept. */
export function redactFile(file: ExportFile, remove: readonly Finding[]): ExportFile {
  if (remove.length === 0) return file;
  // Longest first, so a secret containing another is replaced whole.
  const sorted = [...remove].sort((a, b) => b.value.length - a.value.length);
  return redactValue(file, sorted) as ExportFile;
}
