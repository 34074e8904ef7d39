/** The `@query` being typed just before the caret (at the start or after a space), or undefined. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | undefined {
  const m = /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!m) return undefined;
  const query = m[1] ?? "";
  return { start: caret - query.length - 1, query };
}
