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

  it('runs, pauses, signs, resumes and bounds turns; builds a context packet (Web Crypto hashes; no cacheDir)', async () => {
    const response = await fetch(workerd!.url);
    expect(response.status, workerd!.stderr()).toBe(200);
    expect(await response.json()).toEqual({
      packet: [true, '5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03', 'two\nthree\n', true, 'cache_unavailable'],
      weather: ['completed', 'Sunny in Oslo', 9],
      paused: ['awaiting_approval', 43],
      resumed: ['completed', 'Booked Maaemo'],
      refused: ['failed', 'continuation_invalid'],
      timedOut: ['deferred', 'timeout_reached'],
      perIsolateKey: [43, 'completed', 'Booked Kontrast'],
      reduced: [
        true,
        ['  ✓ passes\n  ✓ passes\n  ✓ passes', 'AssertionError: expected 3 to be 4', `${'  ✓ passes\n'.repeat(5)}Tests  1 failed | 10000 passed`],
        true,
        'tampered',
      ],
    });
  }, 30_000);

  it('runs an agent project turn from an in-memory VFS: a skill, a deny, an ask resumed by a new agent harness', async () => {
    const response = await fetch(`${workerd!.url}project`);
    expect(response.status, workerd!.stderr()).toBe(200);
    expect(await response.json()).toEqual({
      offered: ['bash', 'skill'],
      paused: ['awaiting_approval', 'git push*'],
      resumed: ['completed', expect.stringMatching(/^NOTES-BODY\n[\s\S]*- template\.md \| permission_denied \| ran git push with token-value and undefined$/), 3],
      instructions: ['lead', 'AGENTS.md', 12],
      ran: ['git push'],
    });
  }, 30_000);
});
