/**
 * `edit`: replaces `oldString` with `newString` in a file the model has read
 * (and that has not changed since), through the replacer cascade. An empty
 * `oldString` creates a new file (on an existing file it is an error). The
 * file's line endings and byte-order mark are kept. Edits and writes of one
 * path run one at a time.
 */
import { z } from "../zod";
import { defineTool } from "./tool";
import { withFileLock } from "./file-lock";
import { replaceText } from "./replace-offload";
import { decodeTextFile, encodeTextFile, encodingNote, lf } from "./text-file";
import { assertReadUnchanged, changePolicy, fileDiff, recordRead, requireSandbox, workspacePath } from "./workspace";

const parameters = z.object({
  filePath: z.string().check(z.describe("The path of the file to modify (relative to the workspace root, or absolute inside it)")),
  oldString: z.string().check(z.describe("The text to replace")),
  newString: z.string().check(z.describe("The text to replace it with (must be different from oldString)")),
  replaceAll: z.optional(z.boolean().check(z.describe("Replace all occurrences of oldString (default false)"))),
});

export const editTool = defineTool({
  id: "edit",
  description: `Performs exact string replacements in a file.

- Read the file with the read tool first; editing a file that was not read, or that changed since it was read, fails.
- oldString must match the file's text, including indentation. Do not include the "N: " line-number prefixes of the read output.
- The edit fails when oldString is not found, or when it matches several places: add surrounding lines to make it unique, or set replaceAll to change every occurrence.
- An empty oldString creates a new file with newString; on an existing file it is an error (use the write tool to rewrite a file).
- Prefer editing existing files over writing new ones.`,
  parameters,
  async execute(args, ctx) {
    if (args.oldString === args.newString) throw new Error("No changes to apply: oldString and newString are identical.");
    const sandbox = requireSandbox(ctx);
    const { abs, rel } = workspacePath(sandbox, args.filePath);
    return withFileLock(sandbox, abs, async () => {
      const stat = await sandbox.fs.stat(abs);
      if (stat?.type === "directory") throw new Error(`Path is a directory, not a file: ${abs}`);
      if (stat && args.oldString === "") {
        throw new Error(
          `${rel} already exists: an empty oldString would replace the whole file. Quote the text to change in oldString, or use the write tool to rewrite the file.`,
        );
      }
      if (!stat && args.oldString !== "") {
        throw new Error(`File not found: ${abs}. Use an empty oldString (or the write tool) to create it.`);
      }

      let before = "";
      let after = args.newString;
      if (stat) {
        const bytes = await sandbox.fs.readFile(abs);
        await assertReadUnchanged(ctx, abs, bytes);
        const file = decodeTextFile(bytes);
        if (!file.utf8) throw new Error(`${rel} was not edited. ${encodingNote(file)}`);
        before = file.text;
        const r = await replaceText(ctx, file.text, lf(args.oldString), lf(args.newString), args.replaceAll ?? false);
        if (!r.ok) throw new Error(r.error);
        after = encodeTextFile(r.content, file);
      }

      const { diff, additions, deletions } = fileDiff(rel, before, after);
      const policy = changePolicy(ctx, sandbox, abs);
      await ctx.ask({ permission: "edit", patterns: [rel], always: ["*"], metadata: { filePath: abs, diff } });
      await sandbox.fs.writeFile(abs, after, { policy });
      await recordRead(ctx, abs, after);
      return {
        title: rel,
        output: stat ? "Edit applied successfully." : `Created ${rel}.`,
        metadata: { filePath: abs, diff, additions, deletions },
      };
    });
  },
});
