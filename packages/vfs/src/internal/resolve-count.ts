import { VfsInvalidOptionError } from '../errors/vfs-invalid-option-error.js';

/**
 * Returns `value` when it is a positive safe integer, `fallback` when it is `undefined`, and
 * throws `VfsInvalidOptionError` naming `field` otherwise.
 */
export function resolveCount(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new VfsInvalidOptionError(`${field} must be a positive integer; got ${describe(value)}.`, { field });
  }
  return value;
}

/** Throws `VfsInvalidOptionError` unless `value` is `undefined` or a non-empty string. */
export function resolveLabel(value: unknown, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new VfsInvalidOptionError(`${field} must be a non-empty string; got ${describe(value)}.`, { field });
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return typeof value;
}

/** The longest search query accepted, in characters. */
export const MAX_QUERY_LENGTH = 1000;

/** The trimmed query; throws `VfsInvalidOptionError` (field `query`) when empty or too long. */
export function resolveQuery(query: unknown): string {
  if (typeof query !== 'string' || query.trim() === '') {
    throw new VfsInvalidOptionError('query must be a non-empty string.', { field: 'query' });
  }
  if (query.length > MAX_QUERY_LENGTH) {
    throw new VfsInvalidOptionError(`query must be at most ${MAX_QUERY_LENGTH} characters.`, { field: 'query' });
  }
  return query.trim();
}

/** Checks `options` is an object (or absent) and returns it. */
export function resolveOptionsObject<T extends object>(options: T | undefined, field: string): Partial<T> {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) {
    throw new VfsInvalidOptionError(`${field} must be an object.`, { field });
  }
  return options;
}
