const TRUNCATED = '…[truncated]';

/** Cuts `text` to at most `max` characters, marking a cut with `…[truncated]`. */
export function limitText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= TRUNCATED.length) return text.slice(0, max);
  return `${text.slice(0, max - TRUNCATED.length)}${TRUNCATED}`;
}

/**
 * Content as one attribute string: text as it is, anything else as JSON, cut to `max`
 * characters. Never throws: a value JSON cannot hold (circular, BigInt, a throwing getter) is
 * recorded as `[unserialisable]`.
 */
export function describeContent(value: unknown, max: number): string {
  if (typeof value === 'string') return limitText(value, max);
  try {
    const json = JSON.stringify(value);
    return limitText(typeof json === 'string' ? json : String(json), max);
  } catch {
    return '[unserialisable]';
  }
}
