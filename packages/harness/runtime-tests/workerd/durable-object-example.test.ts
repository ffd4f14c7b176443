// examples/durable-object-resume-guard in workerd, bundled from the built package as a user's
// Worker is: 16 approvals of one continuation at once book one table.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerd, type RunningWorkerd } from './start-workerd.js';

const distEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

describe('examples/durable-object-resume-guard in workerd', () => {
  let workerd: RunningWorkerd | undefined;

  beforeAll(async () => {
    expect(existsSync(distEntry), 'build the package first (npm test does)').toBe(true);
    workerd = await startWorkerd(
      fileURLToPath(new URL('../../../../examples/durable-object-resume-guard/worker.mjs', import.meta.url)),
      `durableObjectNamespaces = [(className = "ResumeGuardDurableObject", uniqueKey = "resume-guard-example", enableSql = true)],
  durableObjectStorage = (inMemory = void),
  bindings = [
    (name = "CONTINUATION_SECRET", text = "example-secret-0123456789abcdef-0123"),
    (name = "RESUME_GUARD", durableObjectNamespace = "ResumeGuardDurableObject"),
  ],`,
    );
  }, 60_000);

  afterAll(() => {
    workerd?.stop();
  });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(new URL(path, workerd!.url), { method: 'POST', body: JSON.stringify(body) });
    expect(response.status, workerd!.stderr()).toBe(200);
    return (await response.json()) as { outcome: string; stopReason: string; continuation?: unknown };
  };

  it('books once when one approval arrives 16 times at once', async () => {
    const paused = await post('/turn', { text: 'Book Maaemo' });
    expect(paused.outcome).toBe('awaiting_approval');
    const results = await Promise.all(Array.from({ length: 16 }, () => post('/approve', { continuation: paused.continuation })));
    expect(results.filter((result) => result.outcome === 'completed')).toHaveLength(1);
    expect(results.filter((result) => result.stopReason === 'continuation_invalid')).toHaveLength(15);
    expect(await (await fetch(workerd!.url)).json()).toEqual({ bookings: 1 });
  }, 30_000);
});
