import { isRecord } from '../../shared/is-record.js';

/** The JSON objects among the lines of `text`; other lines (warnings, blank lines) are skipped. */
export function jsonLines(text: string): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) continue;
    try {
      const value: unknown = JSON.parse(trimmed);
      if (isRecord(value)) objects.push(value);
    } catch {
      // Not a JSON line.
    }
  }
  return objects;
}

/**
 * The first JSON object in `text` that parses, even when it spans several lines (pretty-printed)
 * or follows other output. Tries each line that starts with `{`, up to the last `}`.
 */
export function firstJsonObject(text: string): Record<string, unknown> | undefined {
  const end = text.lastIndexOf('}');
  if (end === -1) return undefined;
  let start = text.indexOf('{');
  while (start !== -1 && start < end) {
    if (start === 0 || text[start - 1] === '\n') {
      try {
        const value: unknown = JSON.parse(text.slice(start, end + 1));
        if (isRecord(value)) return value;
      } catch {
        // Try the next candidate.
      }
    }
    start = text.indexOf('{', start + 1);
  }
  return undefined;
}

/** The JSON object on one line, or `undefined` for anything else (warnings, blank lines, bad JSON). */
export function jsonLineObject(line: string): Record<string, unknown> | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
