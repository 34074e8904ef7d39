/**
 * Fuzzy matching of workspace paths for @ mentions: the query's characters
 * in order (case-insensitive); matches in the file name, at the start of a
 * path segment or word, and in runs score higher; shorter paths win ties.
 */

const BOUNDARY = new Set(["/", ".", "-", "_", " "]);

/** The score of a path for a query, or undefined when the characters do not all appear in order. */
export function fuzzyScore(path: string, query: string): number | undefined {
  const p = path.toLowerCase();
  const q = query.toLowerCase();
  if (q === "") return 0;
  const nameStart = p.lastIndexOf("/") + 1;
  let score = 0;
  let at = -1;
  let run = 0;
  for (const ch of q) {
    const i = p.indexOf(ch, at + 1);
    if (i < 0) return undefined;
    run = i === at + 1 ? run + 1 : 0;
    score += 1 + run * 4;
    const prev = p.charAt(i - 1);
    if (i === 0 || BOUNDARY.has(prev)) score += 6;
    if (i >= nameStart) score += 2;
    score -= Math.min(3, i - at - 1) * 0.5;
    at = i;
  }
  if (p.slice(nameStart).includes(q)) score += 12;
  return score;
}

/** The best `limit` paths for a query, best first. */
export function fuzzyFilter(paths: readonly string[], query: string, limit = 8): string[] {
  const scored: { path: string; score: number }[] = [];
  for (const path of paths) {
    const score = fuzzyScore(path, query);
    if (score !== undefined) scored.push({ path, score });
  }
  scored.sort((a, b) => b.score - a.score || a.path.length - b.path.length || a.path.localeCompare(b.path));
  return scored.slice(0, limit).map((s) => s.path);
}
