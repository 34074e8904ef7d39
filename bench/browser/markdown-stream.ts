/**
 * A realistic model answer in markdown, about `size` characters: headings, long paragraphs,
 * bullet and numbered lists, TypeScript and shell code fences, and tables — the mix a coding
 * agent streams. Deterministic (no randomness); ends with "End of the answer."
 */
export function realisticMarkdown(size: number): string {
  const para = (i: number) =>
    `The \`render${i}\` function walks the list of items once, groups them by their \`kind\` and keeps a running total, so the view can show **${i + 3} sections** without a second pass. ` +
    `When an item changes, only its group is recomputed; the others keep their memoised result, which is why the cost stays flat as the list grows (see [the notes](https://example.invalid/notes/${i}) for the measurements). ` +
    "Edge cases: an empty list renders the placeholder, a list with one kind skips the headings, and unknown kinds fall into *Other*.";
  const code = (i: number) =>
    `\`\`\`ts\nexport function render${i}(items: Item[]): Section[] {\n  const groups = new Map<string, Item[]>();\n  for (const item of items) {\n    const list = groups.get(item.kind) ?? [];\n    list.push(item);\n    groups.set(item.kind, list);\n  }\n  return [...groups].map(([kind, list]) => ({ kind, total: list.reduce((n, x) => n + x.size, 0), items: list }));\n}\n\`\`\``;
  const shell = (i: number) => `\`\`\`sh\nnpm test -- src/render${i}.test.ts\ngit diff --stat\n\`\`\``;
  const table = (i: number) =>
    `| case | before | after |\n|---|---:|---:|\n| empty list | ${i} ms | 0.1 ms |\n| 1,000 items | ${40 + i} ms | 3.2 ms |\n| 10,000 items | ${400 + i} ms | 31 ms |\n| one kind | ${12 + i} ms | 1.1 ms |`;
  const list = (i: number) => `- read \`src/render${i}.ts\` and its test\n- keep the public signature\n  - \`render${i}(items)\` still returns sections\n  - ordering is unchanged\n- add a test for the empty list\n\n1. run the tests\n2. compare the timings\n3. update the notes`;
  const out: string[] = [];
  for (let i = 0; out.join("\n\n").length < size; i++) {
    out.push(`## Step ${i + 1}: render${i}`, para(i), list(i), code(i), para(i + 1), table(i), shell(i));
  }
  out.push("End of the answer.");
  return out.join("\n\n");
}
