/**
 * A per-key sliding-window limit kept in this process's memory (the public form's flood guard).
 * Behind several server processes each has its own window; a shared store would be needed for an
 * exact limit across them.
 */
export class RateLimiter {
  private hits = new Map<string, number[]>();
  constructor(private readonly limit: number, private readonly windowMs: number) {}

  /** Records one attempt for the key; false when the key is over its limit. */
  take(key: string, now = Date.now()): boolean {
    const since = now - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length >= this.limit) {
      this.hits.set(key, list);
      return false;
    }
    list.push(now);
    this.hits.set(key, list);
    if (this.hits.size > 10_000) this.sweep(since);
    return true;
  }

  private sweep(since: number): void {
    for (const [k, list] of this.hits) if (!list.some((t) => t > since)) this.hits.delete(k);
  }
}
