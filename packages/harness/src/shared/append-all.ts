/**
 * Appends every item of `items` to `target`, one at a time. Use it instead of
 * `target.push(...items)` for anything whose length comes from outside: spreading a large array
 * into call arguments throws `RangeError: Maximum call stack size exceeded`.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}
