import { toPlainJson } from '../continuation/to-plain-json.js';
import { utf8ByteLength } from '../continuation/utf8-byte-length.js';
import type { HarnessToolState, HarnessToolStateEntry, HarnessToolStateWrite } from '../../shared/types/tools.js';

/** The largest tool state of a turn, in bytes, however large `maxContinuationBytes` is. */
export const MAX_TOOL_STATE_BYTES = 65_536;

/** How deeply a stored value may nest. */
const MAX_VALUE_DEPTH = 16;

/** The tool state bound of a harness: a quarter of its continuation budget, at most 64 KiB. */
export function toolStateBytesFor(maxContinuationBytes: number): number {
  return Math.max(1, Math.min(MAX_TOOL_STATE_BYTES, Math.floor(maxContinuationBytes / 4)));
}

/** The run's tool state, plus what the harness needs to seal it into a continuation. */
export interface TurnToolState extends HarnessToolState {
  /** Number of keys stored. */
  readonly size: number;
  /** Every entry, in insertion order, for the continuation. */
  entries(): HarnessToolStateEntry[];
}

/**
 * Creates the per-turn tool state store. Keys live in a `Map` (a key such as `__proto__` is
 * only data); values are stored and handed out as plain JSON copies, so a tool cannot change
 * what is stored by mutating what it wrote or read. Restored entries are taken as they are
 * (they come from a verified continuation), even when they exceed the bound; writes that would
 * grow the total past it are refused.
 */
export function createTurnToolState(maxBytes: number, restored: readonly HarnessToolStateEntry[] = []): TurnToolState {
  const values = new Map<string, { json: string; bytes: number }>();
  let used = 0;
  for (const { key, value } of restored) {
    const json = JSON.stringify(value) ?? 'null';
    const bytes = utf8ByteLength(key) + utf8ByteLength(json);
    used += bytes - (values.get(key)?.bytes ?? 0);
    values.set(key, { json, bytes });
  }
  return {
    maxBytes,
    get size() {
      return values.size;
    },
    usedBytes: () => used,
    get(key) {
      const stored = typeof key === 'string' ? values.get(key) : undefined;
      return stored === undefined ? undefined : (JSON.parse(stored.json) as unknown);
    },
    set(key, value): HarnessToolStateWrite {
      if (typeof key !== 'string' || key === '') return { ok: false, reason: 'the key must be a non-empty string' };
      const previous = values.get(key)?.bytes ?? 0;
      if (value === undefined) {
        values.delete(key);
        used -= previous;
        return { ok: true };
      }
      const copied = toPlainJson(value, { maxBytes: maxBytes, maxDepth: MAX_VALUE_DEPTH });
      if (!copied.ok) return { ok: false, reason: `the value is not storable JSON: ${copied.reason}` };
      const json = JSON.stringify(copied.value);
      const bytes = utf8ByteLength(key) + utf8ByteLength(json);
      if (used - previous + bytes > maxBytes) {
        return {
          ok: false,
          reason: `the turn's tool state would grow to ${String(used - previous + bytes)} bytes; the limit is ${String(maxBytes)}`,
        };
      }
      values.set(key, { json, bytes });
      used += bytes - previous;
      return { ok: true };
    },
    entries: () => [...values].map(([key, stored]) => ({ key, value: JSON.parse(stored.json) as unknown })),
  };
}
