import { HarnessConfigError } from './errors/harness-config-error.js';

/** The part of a node-redis client (`redis` v4, v5: `createClient()`) the Redis stores use. */
export interface NodeRedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/** The part of an ioredis client (`new Redis()`, `new Redis.Cluster()`) the Redis stores use. */
export interface IoRedisClientLike {
  call(command: string, ...args: string[]): Promise<unknown>;
}

/**
 * A connected Redis client: a node-redis client or an ioredis client (or cluster), passed in —
 * the harness bundles none. Anything with `call(command, ...args)` (ioredis) or
 * `sendCommand(args)` (node-redis) fits. A node-redis *cluster* client does not: its
 * `sendCommand` takes the key first; give it a client of one node, or use ioredis's cluster.
 */
export type RedisClientLike = NodeRedisClientLike | IoRedisClientLike;

/** Sends one command (`['SET', key, value, 'NX']`) and resolves Redis's reply. */
export type RedisCommand = (args: readonly string[]) => Promise<unknown>;

/**
 * The one way the Redis stores talk to a client: raw commands, so both clients behave alike
 * (same replies: `'OK'`, `null`, strings, integers, arrays). Checked once, at creation.
 * @throws HarnessConfigError when `client` has neither `call` nor `sendCommand`.
 */
export function redisCommand(client: unknown, owner: string): RedisCommand {
  const candidate = typeof client === 'object' || typeof client === 'function' ? (client as Record<string, unknown> | null) : null;
  const call = candidate?.call;
  if (typeof call === 'function') {
    const send = call as (command: string, ...args: string[]) => Promise<unknown>;
    return ([command, ...args]) => send.call(candidate, command!, ...args);
  }
  const sendCommand = candidate?.sendCommand;
  if (typeof sendCommand === 'function') {
    const send = sendCommand as (args: string[]) => Promise<unknown>;
    return (args) => send.call(candidate, [...args]);
  }
  throw new HarnessConfigError(
    `${owner} needs client, a connected Redis client: node-redis (createClient) or ioredis (new Redis); it has neither call nor sendCommand.`,
    { field: 'client' },
  );
}
