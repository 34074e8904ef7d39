/**
 * A short answer in the shapes models write (headings, paragraphs with inline marks, lists, a task list, a
 * table, a link, a fenced block), split into the pieces `warmMarkdown` renders one idle callback at a time.
 * The fenced block comes last, in the open (streaming) block, so no highlighting is asked for.
 */
export const WARM_SAMPLE: readonly string[] = [
  "## What changed\n\nThe store now writes **every pending part** in one transaction, so a reload finds the *whole* answer. See `flush()` and [the notes](https://example.com/notes) for details; ~~nothing else~~ moved.",
  "1. Read the file with `read`.\n2. Edit the function:\n   - keep the signature\n   - return early\n\n- [x] tests pass\n- [ ] docs updated\n\n> A quoted line, with `code` in it.",
  "| file | change | lines |\n|---|---|---:|\n| src/store.ts | batch writes | 42 |\n| src/view.tsx | memoise blocks | 18 |",
  "Then run it:\n\n```ts\nexport async function flush(ids: string[]): Promise<void> {\n  for (const id of ids) await write(id);\n}\n",
];
