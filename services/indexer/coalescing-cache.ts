// Identical reads share one upstream request: while a key is loading, callers join that load, and a
// successful result is reused for `ttlMs`. Failures are shared by the callers that joined, not kept.

export interface CoalescingCache<Value> {
  get(key: string, load: () => Promise<Value>): Promise<Value>
}

export interface CoalescingCacheOptions {
  /** how long a result is reused; 0 joins concurrent loads only */
  ttlMs: number
  /** results kept at most; the oldest go first */
  maxEntries: number
  now?: () => number
}

export function createCoalescingCache<Value>(options: CoalescingCacheOptions): CoalescingCache<Value> {
  const now = options.now ?? Date.now
  // insertion order is expiry order, since every entry lives for the same ttl
  const results = new Map<string, { value: Value; expiresAt: number }>()
  const loading = new Map<string, Promise<Value>>()

  const remember = (key: string, value: Value) => {
    results.delete(key)
    results.set(key, { value, expiresAt: now() + options.ttlMs })
    for (const [oldest, entry] of results) {
      if (results.size <= options.maxEntries && entry.expiresAt > now()) break
      results.delete(oldest)
    }
  }

  return {
    get(key, load) {
      const cached = results.get(key)
      if (cached && cached.expiresAt > now()) return Promise.resolve(cached.value)
      const pending = loading.get(key)
      if (pending) return pending
      const started = load()
        .then((value) => {
          remember(key, value)
          return value
        })
        .finally(() => loading.delete(key))
      loading.set(key, started)
      return started
    },
  }
}
