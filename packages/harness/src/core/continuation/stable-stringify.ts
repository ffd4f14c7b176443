/** JSON with object keys sorted at every level, so equal values always give equal strings. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',';
      // A hole stays empty, as `Array.prototype.map` + `join` always wrote it.
      if (index in value) {
        const item: unknown = value[index];
        text += item === undefined ? 'null' : stableStringify(item);
      }
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (!isSorted(keys)) keys.sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${stableStringify(item)}`;
    first = false;
  }
  return `${text}}`;
}

/** True when `keys` are in the order `Array.prototype.sort` would put them (UTF-16 code units). */
function isSorted(keys: readonly string[]): boolean {
  for (let index = 1; index < keys.length; index += 1) {
    if (keys[index - 1]! > keys[index]!) return false;
  }
  return true;
}
