// Real Redis clients for tests, both kinds the Redis stores accept, closed by `closeAll`.
import { Redis } from 'ioredis';
import { createClient } from 'redis';

/** The clients the Redis stores are tested with. */
export const REDIS_CLIENT_KINDS = ['node-redis', 'ioredis'] as const;
export type RedisClientKind = (typeof REDIS_CLIENT_KINDS)[number];

/** Connects node-redis (`createClient().connect()`) or ioredis (`new Redis()`) to `url`; errors while the server is down are expected. */
export async function connectRedis(kind: RedisClientKind, url: string) {
  if (kind === 'ioredis') {
    const client = new Redis(url);
    client.on('error', () => undefined);
    await client.ping();
    return { kind, client, close: async () => void client.disconnect() };
  }
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  return { kind, client, close: async () => void client.destroy() };
}

/** Opens clients and closes every one of them at the end. */
export function redisClients(url: () => string) {
  const open: { close(): Promise<void> }[] = [];
  return {
    connect: async (kind: RedisClientKind) => {
      const connected = await connectRedis(kind, url());
      open.push(connected);
      return connected;
    },
    /** A node-redis client for the test's own looks at the server (PTTL, EXISTS, CLIENT PAUSE). */
    admin: async () => {
      const client = createClient({ url: url() });
      client.on('error', () => undefined);
      await client.connect();
      open.push({ close: async () => void client.destroy() });
      return client;
    },
    closeAll: async () => {
      await Promise.all(open.splice(0).map((client) => client.close()));
    },
  };
}
