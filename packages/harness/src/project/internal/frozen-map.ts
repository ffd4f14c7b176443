/**
 * A read-only map over `entries` that nothing can change: the backing `Map` is private to this
 * closure (a frozen `Map` would still accept `set`). Keys are plain strings, `__proto__` included.
 */
export function frozenMap<V>(entries: Iterable<readonly [string, V]>): ReadonlyMap<string, V> {
  const map = new Map<string, V>(entries);
  const view: ReadonlyMap<string, V> = {
    get size() {
      return map.size;
    },
    get: (key) => map.get(key),
    has: (key) => map.has(key),
    keys: () => map.keys(),
    values: () => map.values(),
    entries: () => map.entries(),
    forEach(callback, thisArg?: unknown) {
      for (const [key, value] of map) callback.call(thisArg, value, key, view);
    },
    [Symbol.iterator]: () => map.entries(),
  };
  return Object.freeze(view);
}
