/**
 * A realistic ~30 KB markdown answer (headings, long paragraphs, lists, tables, code fences in several
 * languages, inline code and emphasis), generated deterministically, and its split into stream chunks
 * of the size models send (2–40 characters).
 */
const WORDS = "the function returns a promise that resolves once every pending write has landed so the caller can await it safely before reading the session back from storage which keeps the state consistent across tabs".split(" ");

function paragraph(seed: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const w = WORDS[(seed * 7 + i * 13) % WORDS.length] ?? "x";
    out.push(i % 17 === 5 ? `**${w}**` : i % 23 === 11 ? `\`${w}()\`` : i % 29 === 3 ? `*${w}*` : w);
  }
  return `${out.join(" ")}.`;
}

const TS = (n: number) => `\`\`\`ts
export async function flush${n}(store: Store, ids: string[]): Promise<void> {
  // Write every pending part in one transaction.
  const parts = ids.map((id) => store.pending.get(id)).filter((p): p is Part => p !== undefined);
  await store.db.transaction("rw", store.db.parts, async () => {
    for (const p of parts) await store.db.parts.put({ ...p, time: { start: Date.now() } });
  });
  return;
}
\`\`\``;

const PY = `\`\`\`python
def summarise(rows: list[dict]) -> dict:
    """Totals per key, skipping empty rows."""
    out = {}
    for row in rows:
        for k, v in row.items():
            out[k] = out.get(k, 0) + (v or 0)
    return out
\`\`\``;

const TABLE = `| file | change | lines |
|---|---|---:|
| src/core/store.ts | batch writes per frame | 42 |
| src/ui/markdown.tsx | memoise finished blocks | 18 |
| src/adapters/storage/dexie.ts | one transaction per flush | 27 |
| bench/browser/stream.ts | realistic markdown row | 64 |`;

export function markdownDocument(targetBytes = 30_000): string {
  const out: string[] = [];
  let i = 0;
  while (out.join("\n\n").length < targetBytes) {
    out.push(`## Step ${i + 1}: what changes and why`);
    out.push(paragraph(i, 90));
    out.push(`- ${paragraph(i + 1, 12)}\n- ${paragraph(i + 2, 10)}\n  - nested: ${paragraph(i + 3, 6)}\n- ${paragraph(i + 4, 14)}`);
    out.push(i % 2 === 0 ? TS(i) : PY);
    out.push(paragraph(i + 5, 60));
    if (i % 2 === 0) out.push(TABLE);
    out.push(`1. ${paragraph(i + 6, 8)}\n2. ${paragraph(i + 7, 9)}\n3. ${paragraph(i + 8, 7)}`);
    i++;
  }
  return out.join("\n\n");
}

/** Splits text into chunks of 2–40 characters (deterministic). */
export function chunks(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  let n = 0;
  while (at < text.length) {
    const len = 2 + ((n * 37) % 39);
    out.push(text.slice(at, at + len));
    at += len;
    n++;
  }
  return out;
}
