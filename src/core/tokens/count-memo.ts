/** Kept apart from `request-size.ts` so the first screen can hold the memo without the counting code. */
/** Bounded memo of counts for texts that are not parts (system sections, tool specs). */
export class CountMemo {
  private readonly map = new Map<string, number>();
  /** Bumped whenever a count is added or changes (views that cache a size recompute then). */
  version = 0;
  constructor(private readonly max = 256) {}
  get(encoding: string, text: string): number | undefined {
    return this.map.get(`${encoding}\u0000${text}`);
  }
  set(encoding: string, text: string, count: number): void {
    const key = `${encoding}\u0000${text}`;
    if (this.map.get(key) !== count) this.version++;
    this.map.delete(key);
    this.map.set(key, count);
    if (this.map.size > this.max) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
  }
}
