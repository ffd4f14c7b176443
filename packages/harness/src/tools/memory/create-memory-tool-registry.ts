import * as v from '../../shared/validation/index.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { describeError } from '../../shared/describe-error.js';
import { createToolRegistry, type TypedToolRegistry } from '../create-tool-registry.js';
import { defineTool } from '../define-tool.js';
import { boundedOption } from '../../shared/bounded-option.js';
import { checkedInput } from '../checked-input.js';
import { ToolExecutionError } from '../tool-execution-error.js';
import { toolOutput } from '../tool-output.js';
import { isMemoryEntry, MEMORY_KEY_PATTERN, MEMORY_KEY_SOURCE } from './internal/memory-entries.js';
import type { MemoryEntry, MemoryStore } from './memory-store.js';

/** Options of {@link createMemoryToolRegistry}. */
export interface MemoryToolOptions {
  /** Where entries are kept: `createInMemoryMemoryStore()`, `createFileMemoryStore({ path })` or your own. */
  store: MemoryStore;
  /** Longest value `remember` accepts, in characters: 1 to 32768. @default 2000 */
  maxValueChars?: number | undefined;
  /** Most entries one `recall` returns: 1 to 50. @default 10 */
  maxRecallResults?: number | undefined;
  /** Most characters of values one `recall` returns: 1 to 65536. @default 8000 */
  maxRecallChars?: number | undefined;
  /** `true` pauses the turn for approval before `remember` and `forget`. @default false */
  requiresApproval?: boolean | undefined;
}

/** The names of the memory tools. */
export const MEMORY_TOOL_NAMES = ['remember', 'recall', 'forget'] as const;

const KEY_FIELD = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  pattern: MEMORY_KEY_SOURCE,
  description: 'A short, descriptive key, e.g. "user.preferred_language".',
} as const;

/**
 * Creates `remember` (store a value under a key), `recall` (by key, or the entries best matching
 * some words, bounded in count and characters) and `forget` over a {@link MemoryStore}. Unlike the
 * scratchpad, memory outlives the turn: it lasts as long as the store. Keys are any text of 1 to
 * 128 characters without control characters (`__proto__` is an ordinary key); values are bounded
 * by `maxValueChars`. Store errors reach the model as tool errors, never as a crash.
 * @throws HarnessConfigError for a missing store or out-of-range options.
 * @example
 * ```ts
 * const tools = composeToolRegistries(createMemoryToolRegistry({ store: createFileMemoryStore({ path: 'memory.json' }) }), myTools);
 * ```
 */
export function createMemoryToolRegistry(options: MemoryToolOptions): TypedToolRegistry {
  const store = checkStore(options?.store);
  const maxValueChars = boundedOption(options.maxValueChars, 2000, 32_768, 'maxValueChars');
  const maxRecallResults = boundedOption(options.maxRecallResults, 10, 50, 'maxRecallResults');
  const maxRecallChars = boundedOption(options.maxRecallChars, 8000, 65_536, 'maxRecallChars');
  if (options.requiresApproval !== undefined && typeof options.requiresApproval !== 'boolean') {
    throw new HarnessConfigError('requiresApproval must be a boolean.', { field: 'requiresApproval' });
  }
  const requiresApproval = options.requiresApproval ?? false;
  const key = () => v.string().check(v.regex(MEMORY_KEY_PATTERN));

  const remember = defineTool({
    name: 'remember',
    description:
      'Remember a fact for later conversations under a short key, replacing what was stored under that key. ' +
      `Values hold at most ${String(maxValueChars)} characters. Remember only what will help later (preferences, decisions, names).`,
    requiresApproval,
    input: checkedInput(
      { properties: { key: KEY_FIELD, value: { type: 'string', minLength: 1, maxLength: maxValueChars } }, required: ['key', 'value'] },
      () => v.object({ key: key(), value: v.string().check(v.minLength(1), v.maxLength(maxValueChars)) }),
    ),
    execute: async (input) => {
      await callStore(() => store.put(input.key, input.value));
      return `Remembered "${input.key}".`;
    },
  });
  const recall = defineTool({
    name: 'recall',
    description:
      'Recall remembered facts: by exact key, or the entries best matching some words (or the most recent ones when ' +
      `both are left out). Returns at most ${String(maxRecallResults)} entries.`,
    input: checkedInput(
      {
        properties: {
          key: KEY_FIELD,
          query: { type: 'string', maxLength: 500, description: 'Words to look for in keys and values.' },
          limit: { type: 'integer', minimum: 1, maximum: maxRecallResults },
        },
      },
      () =>
        v.object({
          key: v.optional(key()),
          query: v.optional(v.string().check(v.maxLength(500))),
          limit: v.optional(v.int().check(v.minimum(1), v.maximum(maxRecallResults))),
        }),
    ),
    execute: async (input) => {
      if (input.key !== undefined) {
        const entry = await callStore(() => store.get(input.key!));
        if (!isMemoryEntry(entry) || entry.key !== input.key) {
          throw new ToolExecutionError(`Nothing is remembered under "${input.key}"; recall with a query to search.`, { reason: 'not_found', retryable: true });
        }
        return render([entry], maxRecallChars);
      }
      const limit = input.limit ?? maxRecallResults;
      const found = await callStore(() => store.search({ text: input.query ?? '', limit }));
      return render((Array.isArray(found) ? (found as unknown[]) : []).filter(isMemoryEntry).slice(0, limit), maxRecallChars);
    },
  });
  const forget = defineTool({
    name: 'forget',
    description: 'Forget what is remembered under a key.',
    requiresApproval,
    input: checkedInput({ properties: { key: KEY_FIELD }, required: ['key'] }, () => v.object({ key: key() })),
    execute: async (input) => {
      const removed = await callStore(() => store.delete(input.key));
      if (removed !== true) throw new ToolExecutionError(`Nothing is remembered under "${input.key}".`, { reason: 'not_found', retryable: true });
      return `Forgot "${input.key}".`;
    },
  });
  return createToolRegistry([remember, recall, forget]);
}

function checkStore(store: unknown): MemoryStore {
  const methods = ['get', 'put', 'delete', 'search'] as const;
  if (typeof store !== 'object' || store === null || methods.some((name) => typeof (store as Record<string, unknown>)[name] !== 'function')) {
    throw new HarnessConfigError('createMemoryToolRegistry needs a store with get, put, delete and search.', { field: 'store' });
  }
  return store as MemoryStore;
}

/** Runs a store call; errors other than `ToolExecutionError` become a retryable `memory_unavailable`. */
async function callStore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (ToolExecutionError.isInstance(error)) throw error;
    throw new ToolExecutionError(`The memory store failed: ${describeError(error, 500)}`, { reason: 'memory_unavailable', retryable: true, cause: error });
  }
}

/** Whole entries while they fit in `maxChars`; a first entry longer than that is cut. */
function render(entries: readonly MemoryEntry[], maxChars: number) {
  const shown: MemoryEntry[] = [];
  let used = 0;
  for (const entry of entries) {
    const size = entry.key.length + entry.value.length;
    if (used + size > maxChars) {
      if (shown.length === 0) shown.push({ ...entry, value: `${entry.value.slice(0, Math.max(0, maxChars - entry.key.length))}…` });
      break;
    }
    shown.push({ key: entry.key, value: entry.value, updatedAt: entry.updatedAt });
    used += size;
  }
  const truncated = shown.length < entries.length || (shown.length === 1 && shown[0]!.value !== entries[0]!.value);
  const lines = shown.map((entry) => `[${entry.key}] ${entry.value}`);
  if (entries.length === 0) lines.push('Nothing remembered matches.');
  else if (truncated) lines.push(`(${String(maxChars)}-character recall limit reached; ${String(entries.length - shown.length)} more not shown. Recall by key or with narrower words.)`);
  const data = { entries: shown.map((entry) => ({ key: entry.key, value: entry.value, updatedAt: new Date(entry.updatedAt).toISOString() })), truncated };
  return toolOutput({ text: lines.join('\n'), data });
}
