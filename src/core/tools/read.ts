/**
 * `read`: a file's lines, numbered, or a directory's entries; images and PDFs
 * come back as attachments. Limits its own output (2,000 lines, 2,000
 * characters per line, 50 KB) and records what was read, which `edit` and
 * `write` require.
 */
import { z } from "../zod";
import type { SandboxFS } from "../ports/sandbox";
import { basename, dirname, extname, joinPath } from "../sandbox-path";
import { defineTool } from "./tool";
import { binaryBytes, decodeTextFile, encodingNote } from "./text-file";
import { recordRead, requireSandbox, workspacePath } from "./workspace";
import { loadedRules, nestedRulesFor, systemReminder } from "../rules/nested";

export const DEFAULT_READ_LIMIT = 2000;
export const MAX_LINE_LENGTH = 2000;
export const MAX_READ_BYTES = 50 * 1024;
const LINE_SUFFIX = `... (line truncated to ${MAX_LINE_LENGTH} chars)`;

const BINARY_EXTENSIONS = new Set(
  ".zip .tar .gz .tgz .bz2 .xz .7z .rar .exe .dll .so .dylib .class .jar .war .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp .bin .dat .obj .o .a .lib .wasm .pyc .pyo .woff .woff2 .ttf .otf .eot .mp3 .mp4 .mov .avi .webm .ogg .wav .flac .sqlite .db".split(
    " ",
  ),
);


/** Media larger than this is not attached (providers reject it, and it would fill the context). */
export const MAX_MEDIA_BYTES = 20 * 1024 * 1024;

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** The media type a file's first bytes announce (PNG, JPEG, GIF, WebP, BMP, AVIF, PDF), or undefined. */
export function sniffMedia(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF8"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  if (startsWith(bytes, ascii("%PDF-"))) return "application/pdf";
  if (startsWith(bytes, ascii("ftypavif"), 4)) return "image/avif";
  if (startsWith(bytes, ascii("BM")) && bytes.length > 14) return "image/bmp";
  if (startsWith(bytes, [0, 0, 1, 0])) return "image/x-icon";
  return undefined;
}

function megabytes(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** Binary by extension, or by its bytes (`binaryBytes`: a UTF-16 file is text). */
export function looksBinary(path: string, bytes: Uint8Array): boolean {
  if (BINARY_EXTENSIONS.has(extname(path))) return true;
  return binaryBytes(bytes);
}

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

const encoder = new TextEncoder();

/** Formats lines `offset..` of `text` with the read limits and the footer. */
export function formatLines(text: string, offset: number, limit: number): { body: string; footer: string; total: number; truncated: boolean } {
  const lines = text === "" ? [] : text.replace(/\r\n/g, "\n").split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const total = lines.length;
  const out: string[] = [];
  let bytes = 0;
  let capped = false;
  const start = offset - 1;
  for (let i = start; i < Math.min(total, start + limit); i++) {
    const raw = lines[i] ?? "";
    const line = raw.length > MAX_LINE_LENGTH ? raw.slice(0, MAX_LINE_LENGTH) + LINE_SUFFIX : raw;
    const entry = `${i + 1}: ${line}`;
    const size = encoder.encode(entry).length + 1;
    if (bytes + size > MAX_READ_BYTES) {
      capped = true;
      break;
    }
    out.push(entry);
    bytes += size;
  }
  const last = offset + out.length - 1;
  let footer: string;
  if (capped) footer = `(Output capped at 50 KB. Showing lines ${offset}-${last}. Use offset=${last + 1} to continue.)`;
  else if (last < total) footer = `(Showing lines ${offset}-${last} of ${total}. Use offset=${last + 1} to continue.)`;
  else footer = `(End of file - total ${total} lines)`;
  return { body: out.join("\n"), footer, total, truncated: capped || last < total };
}

const parameters = z.object({
  filePath: z.string().check(z.describe("The path of the file or directory to read (relative to the workspace root, or absolute inside it)")),
  offset: z.optional(z.int().check(z.describe("The line number to start reading from (1-indexed)"))),
  limit: z.optional(z.int().check(z.describe(`The maximum number of lines to read (defaults to ${DEFAULT_READ_LIMIT})`))),
});

export const readTool = defineTool({
  id: "read",
  description: `Reads a file or directory from the workspace.

- filePath may be relative to the workspace root or absolute inside it.
- By default up to ${DEFAULT_READ_LIMIT} lines are returned from the start; use offset (1-indexed) and limit for long files.
- Lines longer than ${MAX_LINE_LENGTH} characters are cut; the output is capped at 50 KB.
- Each line is prefixed with its number as "N: ". Do not include these prefixes in edit strings.
- A directory returns its entries, directories with a trailing "/".
- Images and PDFs are returned as attachments. Other binary files cannot be read.
- Read a file before editing or overwriting it.`,
  parameters,
  selfTruncating: true,
  async execute(args, ctx) {
    const sandbox = requireSandbox(ctx);
    const { abs, rel } = workspacePath(sandbox, args.filePath);
    const offset = args.offset ?? 1;
    const limit = args.limit ?? DEFAULT_READ_LIMIT;
    if (offset < 1) throw new Error("offset must be greater than or equal to 1");
    if (limit < 1) throw new Error("limit must be greater than or equal to 1");
    await ctx.ask({ permission: "read", patterns: [rel], always: ["*"], metadata: {} });

    const stat = await sandbox.fs.stat(abs);
    if (!stat) throw new Error(await notFoundMessage(sandbox.fs, abs));

    if (stat.type === "directory") {
      const entries = (await sandbox.fs.list(abs)).map((e) => (e.type === "directory" ? `${e.name}/` : e.name));
      const start = offset - 1;
      const page = entries.slice(start, start + limit);
      const more = start + page.length < entries.length;
      const footer = more
        ? `(Showing ${page.length} of ${entries.length} entries. Use offset=${start + page.length + 1} to continue.)`
        : `(${entries.length} entries)`;
      const output = [`<path>${abs}</path>`, "<type>directory</type>", "<entries>", page.join("\n"), "", footer, "</entries>"].join("\n");
      return { title: rel, output, metadata: { preview: page.slice(0, 20).join("\n"), truncated: more } };
    }

    const bytes = await sandbox.fs.readFile(abs);
    // The content decides: a `.png` holding text is text, a PDF named `.dat` is a PDF.
    const mime = sniffMedia(bytes);
    if (mime && stat.size > MAX_MEDIA_BYTES) {
      throw new Error(`${rel} is too large to attach (${megabytes(stat.size)}; the limit is 20 MB). Describe it another way, or make a smaller copy.`);
    }
    if (mime) {
      const kind = mime === "application/pdf" ? "PDF" : "Image";
      return {
        title: rel,
        output: `${kind} read successfully`,
        metadata: { preview: `${kind} read successfully`, truncated: false },
        attachments: [{ mime, filename: basename(abs), url: `data:${mime};base64,${base64(bytes)}` }],
      };
    }
    if (looksBinary(abs, bytes)) throw new Error(`Cannot read binary file: ${abs}`);

    const file = decodeTextFile(bytes);
    const { text, utf8 } = file;
    const lines = formatLines(text, offset, limit);
    if (offset > lines.total && !(offset === 1 && lines.total === 0)) {
      throw new Error(`Offset ${offset} is out of range for this file (${lines.total} lines)`);
    }
    await recordRead(ctx, abs, bytes);
    let output = [`<path>${abs}</path>`, "<type>file</type>", "<content>", lines.body, "", lines.footer, "</content>"].join("\n");
    if (!utf8) output += `\n\n${encodingNote(file)}`;
    // Instructions of the folders between this file and the workspace root, once per session (spec §7.1).
    const nested = await nestedRulesFor(sandbox.fs, abs, sandbox.root, loadedRules(ctx.state));
    const reminder = systemReminder(nested.files);
    if (reminder) output += `\n\n${reminder}`;
    return {
      title: rel,
      output,
      metadata: {
        preview: lines.body.split("\n").slice(0, 20).join("\n"),
        truncated: lines.truncated,
        ...(nested.files.length ? { loaded: nested.files.map((f) => f.path) } : {}),
      },
    };
  },
});

/** "File not found", with up to 3 similarly named files of the same directory. */
async function notFoundMessage(fs: SandboxFS, abs: string): Promise<string> {
  const dir = dirname(abs);
  const base = basename(abs).toLowerCase();
  let suggestions: string[] = [];
  try {
    suggestions = (await fs.list(dir))
      .filter((e) => {
        const name = e.name.toLowerCase();
        return name.includes(base) || base.includes(name) || stem(name) === stem(base);
      })
      .map((e) => joinPath(dir, e.name))
      .slice(0, 3);
  } catch {
    // The directory is missing too.
  }
  if (!suggestions.length) return `File not found: ${abs}`;
  return `File not found: ${abs}\n\nDid you mean one of these?\n${suggestions.join("\n")}`;
}

function stem(name: string): string {
  const i = name.lastIndexOf(".");
  return i > 0 ? name.slice(0, i) : name;
}
