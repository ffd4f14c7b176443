import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerd, type RunningWorkerd } from './start-workerd.js';

const distEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

describe('the built main entry inside workerd (the Cloudflare Workers runtime)', () => {
  let workerd: RunningWorkerd | undefined;

  beforeAll(async () => {
    expect(existsSync(distEntry), 'build the package first (npm test does)').toBe(true);
    workerd = await startWorkerd(
      fileURLToPath(new URL('./worker.mjs', import.meta.url)),
      'bindings = [(name = "CONTINUATION_SECRET", text = "workerd-secret-0123456789abcdef")],',
    );
  }, 60_000);

  afterAll(() => {
    workerd?.stop();
  });

  it('runs, pauses, signs, resumes and bounds turns', async () => {
    const response = await fetch(workerd!.url);
    expect(response.status, workerd!.stderr()).toBe(200);
    expect(await response.json()).toEqual({
      weather: ['completed', 'Sunny in Oslo', 9],
      paused: ['awaiting_approval', 43],
      resumed: ['completed', 'Booked Maaemo'],
      refused: ['failed', 'continuation_invalid'],
      timedOut: ['deferred', 'timeout_reached'],
      perIsolateKey: [43, 'completed', 'Booked Kontrast'],
    });
  }, 30_000);
});
