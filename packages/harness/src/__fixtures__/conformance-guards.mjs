// Guard factories that runResumeGuardConformance's claimer processes import (built package).
import { createFileResumeGuard, createMemoryResumeGuard, createRedisResumeGuard } from '@agent-assistant/harness';

/** A file resume guard over `directory`. */
export function fileGuard({ directory }) {
  return createFileResumeGuard({ directory });
}

/** A memory resume guard: each process has its own, so it cannot hold across processes. */
export function memoryGuard() {
  return createMemoryResumeGuard();
}

/** A Redis resume guard over a new connection to `url`, with node-redis or ioredis. */
export async function redisGuard({ url, client: kind }) {
  if (kind === 'ioredis') {
    const { Redis } = await import('ioredis');
    const client = new Redis(url);
    client.on('error', () => undefined);
    return createRedisResumeGuard({ client });
  }
  const { createClient } = await import('redis');
  const client = createClient({ url });
  client.on('error', () => undefined);
  await client.connect();
  return createRedisResumeGuard({ client });
}
