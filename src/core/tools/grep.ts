/**
 * `grep`: lines matching a regex in workspace files (optionally only files
 * matching an `include` glob), grouped by file, newest files first, at most
 * 100 matches. Runs over the sandbox port, so it works on every backend.
 */
import picomatch from "picomatch";
import { z } from "../zod";
import { relativeTo } from "../sandbox-path";
import { safeRegex } from "../util/safe-regex";
import { skippedDirs } from "./glob";
import { looksBinary, MAX_LINE_LENGTH } from "./read";
import { decodeTextFile } from "./text-file";
import { defineTool } from "./tool";
import { requireSandbox, walkFiles, workspacePath } from "./workspace";

export const GREP_LIMIT = 100;
/** Files larger than this are not searched. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Characters of a line the regex looks at (bounds the matching time per line). */
const MAX_TESTED_CHARS = 10_000;

const parameters = z.object({
  pattern: z.string().check(z.describe("The regex pattern to search for in file contents")),
  path: z.optional(z.string().check(z.describe("The directory to search in (default the workspace root)"))),
  include: z.optional(z.string().check(z.describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.{ts,tsx}"'))),
});

interface Match {
  path: string;
  mtime: number;
  line: number;
  text: string;
}

export const grepTool = defineTool({
  id: "grep",
  description: `Searches file contents with a regular expression (JavaScript syntax; a leading (?i) makes it case-insensitive).

- path defaults to the workspace root; include filters files by glob ("*.ts", "src/**/*.{ts,tsx}").
- Returns at most ${GREP_LIMIT} matching lines, grouped by file, most recently modified files first.
- Binary files and files over 2 MB are skipped.`,
  parameters,
  async execute(args, ctx) {
    const sandbox = requireSandbox(ctx);
    const built = safeRegex(args.pattern);
    if (!built.ok) throw new Error(built.error);
    const regex = built.regex;
    const { abs, rel } = workspacePath(sandbox, args.path);
    const st = await sandbox.fs.stat(abs);
    if (!st) throw new Error(`Path not found: ${abs}`);
    await ctx.ask({ permission: "grep", patterns: [args.pattern], always: ["*"], metadata: { path: abs, include: args.include } });

    const include = args.include ? picomatch(args.include, { dot: true, basename: !args.include.includes("/") }) : undefined;
    const files =
      st.type === "directory"
        ? (await walkFiles(sandbox.fs, abs, { skipDirs: skippedDirs(`${args.include ?? ""} ${args.path ?? ""}`) })).files
        : [st];
    const included = files.filter((f) => !include || include(st.type === "directory" ? relativeTo(abs, f.path) : f.name));
    const tooLarge = included.filter((f) => f.size > MAX_FILE_BYTES);
    const candidates = included.filter((f) => f.size <= MAX_FILE_BYTES).sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : 1));

    const matches: Match[] = [];
    let total = 0;
    // Lines searched only in part: said, so a match further along one is not taken as absent.
    let cutLines = 0;
    for (const f of candidates) {
      if (ctx.signal.aborted) throw new Error("Search aborted");
      const bytes = await sandbox.fs.readFile(f.path);
      if (looksBinary(f.path, bytes)) continue;
      // Decoded as read shows it (a UTF-16 file too).
      const lines = decodeTextFile(bytes).text.split("\n");
      lines.forEach((line, i) => {
        if (line.length > MAX_TESTED_CHARS) cutLines++;
        if (!regex.test(line.length > MAX_TESTED_CHARS ? line.slice(0, MAX_TESTED_CHARS) : line)) return;
        total++;
        if (matches.length < GREP_LIMIT) {
          const text = line.length > MAX_LINE_LENGTH ? `${line.slice(0, MAX_LINE_LENGTH)}...` : line;
          matches.push({ path: f.path, mtime: f.mtime, line: i + 1, text });
        }
      });
    }

    // Quoting a file's lines reads it: `read` rules (`*.env`) decide, as for the read tool.
    const quoted = [...new Set(matches.map((m) => relativeTo(sandbox.root, m.path)))];
    if (quoted.length) await ctx.ask({ permission: "read", patterns: quoted, always: ["*"], metadata: { grep: args.pattern } });
    const title = args.pattern;
    const notes: string[] = [];
    if (tooLarge.length) {
      const named = tooLarge.slice(0, 3).map((f) => relativeTo(sandbox.root, f.path));
      notes.push(`Not searched: ${tooLarge.length} file${tooLarge.length === 1 ? "" : "s"} over 2 MB (${named.join(", ")}${tooLarge.length > 3 ? ", …" : ""}); use bash (grep) for ${tooLarge.length === 1 ? "it" : "them"}.`);
    }
    if (cutLines) notes.push(`Only the first ${MAX_TESTED_CHARS.toLocaleString("en")} characters of ${cutLines} very long line${cutLines === 1 ? " were" : "s were"} searched; use bash (grep) to search all of ${cutLines === 1 ? "it" : "them"}.`);
    const noted = notes.length ? `\n\n(${notes.join(" ")})` : "";
    if (!matches.length) return { title, output: `No files found${noted}`, metadata: { matches: 0, truncated: false } };
    const out = [`Found ${total} match${total === 1 ? "" : "es"}${total > matches.length ? ` (showing the first ${matches.length})` : ""}`];
    let current = "";
    for (const m of matches) {
      if (m.path !== current) {
        if (current) out.push("");
        out.push(`${m.path}:`);
        current = m.path;
      }
      out.push(`  Line ${m.line}: ${m.text}`);
    }
    const truncated = total > matches.length;
    if (truncated) out.push("", `(Results are truncated: showing ${matches.length} of ${total} matches. Use a more specific path, pattern or include glob.)`);
    return { title: rel === "." ? title : `${title} in ${rel}`, output: out.join("\n") + noted, metadata: { matches: total, truncated } };
  },
});
