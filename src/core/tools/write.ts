/**
 * `write`: creates or overwrites a file. Overwriting needs a prior read of
 * the current content (the same rule as `edit`).
 */
import { z } from "../zod";
import { withFileLock } from "./file-lock";
import { defineTool } from "./tool";
import { assertReadUnchanged, changePolicy, fileDiff, recordRead, requireSandbox, workspacePath } from "./workspace";

const parameters = z.object({
  filePath: z.string().check(z.describe("The path of the file to write (relative to the workspace root, or absolute inside it)")),
  content: z.string().check(z.describe("The content to write to the file")),
});

export const writeTool = defineTool({
  id: "write",
  description: `Writes a file to the workspace, creating parent directories as needed.

- Overwriting an existing file requires reading it first with the read tool; the write fails if the file changed since.
- Prefer the edit tool for changes to existing files; use write for new files or complete rewrites.`,
  parameters,
  async execute(args, ctx) {
    const sandbox = requireSandbox(ctx);
    const { abs, rel } = workspacePath(sandbox, args.filePath);
    return withFileLock(sandbox, abs, async () => {
      const stat = await sandbox.fs.stat(abs);
      if (stat?.type === "directory") throw new Error(`Path is a directory, not a file: ${abs}`);
      let before = "";
      if (stat) {
        const bytes = await sandbox.fs.readFile(abs);
        await assertReadUnchanged(ctx, abs, bytes);
        before = new TextDecoder().decode(bytes);
      }
      const { diff, additions, deletions } = fileDiff(rel, before, args.content);
      const policy = changePolicy(ctx, sandbox, abs);
      await ctx.ask({ permission: "edit", patterns: [rel], always: ["*"], metadata: { filePath: abs, diff } });
      await sandbox.fs.writeFile(abs, args.content, { policy });
      await recordRead(ctx, abs, args.content);
      return {
        title: rel,
        output: stat ? `Wrote ${rel} (overwrote the previous content).` : `Wrote ${rel} (new file).`,
        metadata: { filePath: abs, exists: Boolean(stat), diff, additions, deletions },
      };
    });
  },
});
