import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { boundedOption } from '../../shared/bounded-option.js';
import { describeError } from '../../shared/describe-error.js';
import { redisCommand, type RedisClientLike, type RedisCommand } from '../../shared/redis-client.js';
import { isMemoryEntry, memoryFull, memoryUnavailable, searchEntries } from './internal/memory-entries.js';
import type { MemoryEntry, MemoryStore } from './memory-store.js';

/** Options of {@link createRedisMemoryStore}. */
export interface RedisMemoryStoreOptions {
  /** A connected node-redis or ioredis client (see `RedisClientLike`); the store never connects or closes it. */
  client: RedisClientLike;
  /** The Redis hash holding the entries; one per memory (per user, say). @default 'agent-assistant:memory' */
  key?: string | undefined;
  /** Most entries kept: 1 to 100000. @default 1000 */
  maxEntries?: number | undefined;
  /**
   * Largest total size of the entries (UTF-8 bytes of each key and its JSON record), 1 to
   * 67108864 (64 MiB); also the most a read takes from Redis. @default 1048576 (1 MiB)
   */
  maxBytes?: number | undefined;
}

/** The hash field holding the entries' total size; memory keys have no control characters, so none collides. */
const SIZE_FIELD = '\u0000size';

/** Sizes the entries, ignoring the size field: the sum of each field's and value's bytes. */
const SIZE_OF = `
local function size_of(hash, size_field)
  local fields = redis.call('HKEYS', hash)
  local total = 0
  for _, field in ipairs(fields) do
    if field ~= size_field then total = total + #field + redis.call('HSTRLEN', hash, field) end
  end
  return total
end
`;

/** put(key, record): refuses past maxEntries or maxBytes and changes nothing then. */
const PUT_SCRIPT = /* @__PURE__ */ (() => `${SIZE_OF}
local hash, key, record, max_entries, max_bytes, size_field = KEYS[1], ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local total = tonumber(redis.call('HGET', hash, size_field)) or size_of(hash, size_field)
local old = redis.call('HGET', hash, key)
local count = redis.call('HLEN', hash) - redis.call('HEXISTS', hash, size_field)
if not old and count >= max_entries then return {'entries', count} end
local after = total + #record - (old and #old or -#key)
if after > max_bytes then return {'bytes', after} end
redis.call('HSET', hash, key, record, size_field, after)
return {'ok', after}
`)();

/** delete(key): 1 when it was there. */
const DELETE_SCRIPT = /* @__PURE__ */ (() => `${SIZE_OF}
local hash, key, size_field = KEYS[1], ARGV[1], ARGV[2]
local old = redis.call('HGET', hash, key)
if not old then return 0 end
redis.call('HDEL', hash, key)
if redis.call('HLEN', hash) == 1 and redis.call('HEXISTS', hash, size_field) == 1 then redis.call('DEL', hash) return 1 end
local total = tonumber(redis.call('HGET', hash, size_field))
if total then redis.call('HSET', hash, size_field, math.max(0, total - #key - #old)) end
return 1
`)();

/** get(key): the record, or refuses one larger than maxBytes without sending it. */
const GET_SCRIPT = `
local hash, key, max_bytes = KEYS[1], ARGV[1], tonumber(ARGV[2])
local size = redis.call('HSTRLEN', hash, key)
if size > max_bytes then return {'bytes', size} end
local record = redis.call('HGET', hash, key)
if not record then return {'missing'} end
return {'ok', record}
`;

/** all(): every field and record (flat, in either protocol), or refuses a hash past the limits without sending it. */
const ALL_SCRIPT = /* @__PURE__ */ (() => `${SIZE_OF}
local hash, max_entries, max_bytes, size_field = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local count = redis.call('HLEN', hash) - redis.call('HEXISTS', hash, size_field)
if count > max_entries then return {'entries', count} end
local total = size_of(hash, size_field)
if total > max_bytes then return {'bytes', total} end
return {'ok', redis.call('HGETALL', hash)}
`)();

/**
 * A {@link MemoryStore} in one Redis hash, shared by every process and machine using the same
 * Redis and `key`; the file store's semantics and limits (`maxEntries`, a byte limit). Each
 * operation is one atomic script: concurrent `put`s from many machines never go past the limits,
 * and a refused `put` (`memory_full`) changes nothing. Last write wins. A `key` that holds
 * something else (not a hash), a malformed record or a hash past the limits written by someone
 * else is refused (`memory_unavailable`, not retryable) and never overwritten or read whole.
 * Works with node-redis and ioredis; no client is bundled and nothing here needs Node.js.
 * @throws HarnessConfigError for a client that is neither, a bad key or out-of-range options.
 * @example
 * ```ts
 * const store = createRedisMemoryStore({ client, key: `memory:${userId}` });
 * const tools = createMemoryToolRegistry({ store });
 * ```
 */
export function createRedisMemoryStore(options: RedisMemoryStoreOptions): MemoryStore {
  const command = redisCommand((options as Partial<RedisMemoryStoreOptions> | undefined)?.client, 'createRedisMemoryStore');
  const hash = options.key ?? 'agent-assistant:memory';
  if (typeof hash !== 'string' || hash === '') throw new HarnessConfigError('key must be a non-empty string.', { field: 'key' });
  const maxEntries = boundedOption(options.maxEntries, 1000, 100_000, 'maxEntries');
  const maxBytes = boundedOption(options.maxBytes, 1024 * 1024, 64 * 1024 * 1024, 'maxBytes');
  const limits = { maxEntries, maxBytes };
  const run = (script: string, args: string[]) => evaluate(command, script, hash, args);

  return {
    async get(key) {
      const [status, record] = await run(GET_SCRIPT, [key, String(maxBytes)]);
      if (status === 'missing') return undefined;
      refuseOverLimit(status, record, limits);
      return parseRecord(key, record);
    },
    async put(key, value) {
      const record = JSON.stringify({ value, updatedAt: Date.now() });
      const [status, figure] = await run(PUT_SCRIPT, [key, record, String(maxEntries), String(maxBytes), SIZE_FIELD]);
      if (status === 'entries') throw memoryFull(`The memory holds ${String(maxEntries)} entries.`);
      if (status === 'bytes') throw memoryFull(`The memory would hold ${String(figure)} bytes; the limit is ${String(maxBytes)}.`);
    },
    async delete(key) {
      return (await evaluate(command, DELETE_SCRIPT, hash, [key, SIZE_FIELD], true)) === 1;
    },
    async search(query) {
      const [status, flat] = await run(ALL_SCRIPT, [String(maxEntries), String(maxBytes), SIZE_FIELD]);
      refuseOverLimit(status, flat, limits);
      if (!Array.isArray(flat)) throw memoryUnavailable('Redis answered with something other than the entries');
      const entries: MemoryEntry[] = [];
      for (let index = 0; index + 1 < flat.length; index += 2) {
        const field: unknown = flat[index];
        if (field === SIZE_FIELD) continue;
        if (typeof field !== 'string') throw memoryUnavailable('the memory hash holds a field that is not text');
        entries.push(parseRecord(field, flat[index + 1]));
      }
      return searchEntries(entries, query);
    },
  };
}

/** Runs a script on the store's hash. `raw` returns the reply as is; else it must be `[status, value?]`. */
async function evaluate(command: RedisCommand, script: string, hash: string, args: string[], raw: true): Promise<unknown>;
async function evaluate(command: RedisCommand, script: string, hash: string, args: string[]): Promise<[unknown, unknown]>;
async function evaluate(command: RedisCommand, script: string, hash: string, args: string[], raw = false): Promise<unknown> {
  let reply: unknown;
  try {
    reply = await command(['EVAL', script, '1', hash, ...args]);
  } catch (error) {
    // The key holds another type: someone else's data, never overwritten. Anything else may pass (retryable).
    if (describeError(error).startsWith('WRONGTYPE')) throw memoryUnavailable('the memory key holds something other than a Redis hash');
    throw error;
  }
  if (raw) return reply;
  if (!Array.isArray(reply) || reply.length === 0) throw memoryUnavailable('Redis answered the memory script unexpectedly');
  return [reply[0], reply[1]];
}

function refuseOverLimit(status: unknown, figure: unknown, limits: { maxEntries: number; maxBytes: number }): void {
  if (status === 'entries') throw memoryUnavailable(`the memory hash holds ${String(figure)} entries, over the limit of ${String(limits.maxEntries)}`);
  if (status === 'bytes') throw memoryUnavailable(`the memory holds ${String(figure)} bytes, over the limit of ${String(limits.maxBytes)}`);
  if (status !== 'ok') throw memoryUnavailable('Redis answered the memory script unexpectedly');
}

/** Reads one stored record (`{ value, updatedAt }` JSON) defensively. */
function parseRecord(key: string, record: unknown): MemoryEntry {
  let parsed: unknown;
  try {
    parsed = typeof record === 'string' ? JSON.parse(record) : undefined;
  } catch {
    parsed = undefined;
  }
  const { value, updatedAt } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { value?: unknown; updatedAt?: unknown };
  const entry = { key, value, updatedAt };
  if (!isMemoryEntry(entry)) throw memoryUnavailable('the memory hash holds a malformed entry');
  return entry;
}

