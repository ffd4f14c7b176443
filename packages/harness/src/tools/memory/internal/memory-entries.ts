import { ToolExecutionError } from '../../tool-execution-error.js';
import type { MemoryEntry, MemoryQuery } from '../memory-store.js';

/** The source of {@link MEMORY_KEY_PATTERN}, for JSON Schemas. */
export const MEMORY_KEY_SOURCE = '^[^\\u0000-\\u001f\\u007f]{1,128}$';
/** Keys: 1 to 128 characters, no control characters. */
export const MEMORY_KEY_PATTERN = /* @__PURE__ */ new RegExp(MEMORY_KEY_SOURCE);

/** At most this many words of a query are matched. */
const MAX_QUERY_TERMS = 16;

/**
 * The entries of `entries` matching `query`, best first (more matching words, then newer),
 * at most `query.limit`. Shared by the shipped stores.
 */
export function searchEntries(entries: Iterable<MemoryEntry>, query: MemoryQuery): MemoryEntry[] {
  const terms = [...new Set(query.text.toLowerCase().split(/\s+/).filter(Boolean))].slice(0, MAX_QUERY_TERMS);
  const scored: { entry: MemoryEntry; score: number }[] = [];
  for (const entry of entries) {
    const haystack = `${entry.key}\n${entry.value}`.toLowerCase();
    const score = terms.filter((term) => haystack.includes(term)).length;
    if (terms.length === 0 || score > 0) scored.push({ entry, score });
  }
  scored.sort((a, b) => b.score - a.score || b.entry.updatedAt - a.entry.updatedAt);
  return scored.slice(0, Math.max(0, query.limit)).map(({ entry }) => ({ ...entry }));
}

/** The error a shipped store throws when it holds as much as it may. */
export function memoryFull(message: string): ToolExecutionError {
  return new ToolExecutionError(`${message} Forget something first.`, { reason: 'memory_full', retryable: true });
}

/** The error a shipped store throws for data it will not read or overwrite (not retryable). */
export function memoryUnavailable(reason: string): ToolExecutionError {
  return new ToolExecutionError(`The memory cannot be read: ${reason}.`, { reason: 'memory_unavailable', retryable: false });
}

/** True for a well-formed entry (read defensively from a file or a custom store). */
export function isMemoryEntry(value: unknown): value is MemoryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<MemoryEntry>;
  return (
    typeof entry.key === 'string' &&
    MEMORY_KEY_PATTERN.test(entry.key) &&
    typeof entry.value === 'string' &&
    typeof entry.updatedAt === 'number' &&
    Number.isFinite(entry.updatedAt)
  );
}
