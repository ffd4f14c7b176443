import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExample } from '../__fixtures__/run-example.js';
import { startRedisServer, type RedisServer } from '../__fixtures__/redis-server.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.close();
});

// examples/redis-resume-guard run as its own Node process against a real redis-server, bundled from the sources.
describe('examples/redis-resume-guard', () => {
  it('sends the approved email once though two machines resume at once, and recalls memory written on another', async () => {
    const stdout = await runExample('redis-resume-guard', { env: { ...process.env, REDIS_URL: server.url } });
    expect(stdout).toMatch(/^A: awaiting_approval, continuation \S+ expires \d{4}-/m);
    expect(stdout).toContain('A: remembered (completed)');
    expect(stdout).toMatch(/^[BC]: completed, sent 1 email\(s\)$/m);
    expect(stdout).toMatch(/^[BC]: failed \(continuation_already_resumed\), sent 0 email\(s\)$/m);
    expect(stdout).toContain('emails sent in all: 1');
    expect(stdout).toContain('C recalls: [ada.email] Ada reads email at ada@example.com.');
  });
});
