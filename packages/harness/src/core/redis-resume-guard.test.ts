import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeResumeGuardClaimers } from '@agent-assistant/harness/testing/node';
import { createRedisResumeGuard, RESUME_CLAIM_GRACE_MS, resumeClaimKey, type HarnessContinuation, type HarnessResumeGuard } from '../index.js';
import { runResumeGuardConformance } from '../testing/index.js';
import { startRedisServer, type RedisServer } from '../__fixtures__/redis-server.js';
import { REDIS_CLIENT_KINDS, redisClients } from '../__fixtures__/redis-clients.js';
import { APPROVE_MAIL, pauseForApproval, resumingHarness } from './__fixtures__/approval-pause.js';

const built = fileURLToPath(new URL('../../dist/resume-guard-claimer.js', import.meta.url));
const guards = new URL('../__fixtures__/conformance-guards.mjs', import.meta.url);
const PREFIX = 'agent-assistant:resume-claim:';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.close();
});
const clients = redisClients(() => server.url);
afterEach(() => clients.closeAll());

describe.each(REDIS_CLIENT_KINDS)('createRedisResumeGuard with %s (real redis-server)', (kind) => {
  it('passes the conformance suite: 16 processes, a killed claimer, the server killed and restarted mid-run', async () => {
    expect(existsSync(built), 'build the package first (npm test does): dist/resume-guard-claimer.js is missing').toBe(true);
    const { client } = await clients.connect(kind);
    const report = await runResumeGuardConformance(() => createRedisResumeGuard({ client }), {
      processes: createNodeResumeGuardClaimers({ module: guards, exportName: 'redisGuard', args: { url: server.url, client: kind } }),
      store: { stop: () => server.stop(), start: () => server.start(), losesClaimsOnRestart: true },
    });
    expect(report.checks.filter((check) => !check.ok), JSON.stringify(report.checks, null, 2)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.throughput?.claims).toBe(10_000);
    const storeDown = report.checks.find((check) => check.name === 'store-down')!.detail!;
    expect(storeDown).toMatch(/^store down: failed\/continuation_invalid \(resume_claim_(timeout|failed)\) after \d+ ms \(limit 2000 ms\)/);
    expect(report.checks.find((check) => check.name === 'store-restart')!.detail).toMatch(/lost its claims in the restart/);
  }, 120_000);

  it('keeps a claim for the continuation’s remaining life plus the grace, or claimTtlMs without an expiry, under keyPrefix', async () => {
    const { client } = await clients.connect(kind);
    const admin = await clients.admin();
    const expiring = await pauseForApproval({ continuationTtlMs: 60_000 });
    const lasting = await pauseForApproval();
    const guard = createRedisResumeGuard({ client, claimTtlMs: 5_000, keyPrefix: 'test:{claims}:' });
    expect(await guard.claim(expiring)).toBe(true);
    expect(await guard.claim(lasting)).toBe(true);
    const expiringTtl = Number(await admin.pTTL(`test:{claims}:${await resumeClaimKey(expiring)}`));
    const remaining = Date.parse(expiring.expiresAt!) + RESUME_CLAIM_GRACE_MS - Date.now();
    expect(expiringTtl).toBeLessThanOrEqual(remaining + 50);
    expect(expiringTtl).toBeGreaterThan(remaining - 5_000);
    const lastingTtl = Number(await admin.pTTL(`test:{claims}:${await resumeClaimKey(lasting)}`));
    expect(lastingTtl).toBeGreaterThan(0);
    expect(lastingTtl).toBeLessThanOrEqual(5_000);
    const defaults = createRedisResumeGuard({ client });
    const other = await pauseForApproval();
    expect(await defaults.claim(other)).toBe(true);
    const defaultTtl = Number(await admin.pTTL(`${PREFIX}${await resumeClaimKey(other)}`));
    expect(defaultTtl).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
  });

  it('releases a claim that landed after the turn’s deadline (the store was paused), so a retry resumes it once', async () => {
    const { client } = await clients.connect(kind);
    const admin = await clients.admin();
    const continuation = await pauseForApproval();
    const key = `${PREFIX}${await resumeClaimKey(continuation)}`;
    const guard = createRedisResumeGuard({ client });
    let heldBeforeRelease: number | undefined;
    let released!: () => void;
    const releasedDone = new Promise<void>((resolve) => (released = resolve));
    // Observes the real guard's release: was the late claim in Redis just before it ran?
    const observed: HarnessResumeGuard = {
      claim: (claimed) => guard.claim(claimed),
      release: async (claimed) => {
        heldBeforeRelease = await admin.exists(key);
        await guard.release!(claimed);
        released();
      },
    };
    const slow = resumingHarness({ resumeGuard: observed, limits: { maxElapsedMs: 300 } });
    await admin.sendCommand(['CLIENT', 'PAUSE', '60000', 'WRITE']);
    try {
      const refused = await slow.harness.resumeTurn(continuation, APPROVE_MAIL);
      expect(refused.error).toMatchObject({ code: 'resume_claim_timeout', retryable: true });
    } finally {
      await admin.sendCommand(['CLIENT', 'UNPAUSE']);
    }
    await releasedDone;
    expect(heldBeforeRelease).toBe(1);
    expect(await admin.exists(key)).toBe(0);
    const retry = resumingHarness({ resumeGuard: createRedisResumeGuard({ client }) });
    expect((await retry.harness.resumeTurn(continuation, APPROVE_MAIL)).outcome).toBe('completed');
    expect((await retry.harness.resumeTurn(continuation, APPROVE_MAIL)).error?.code).toBe('continuation_already_resumed');
    expect(slow.tools.calls.length + retry.tools.calls.length).toBe(1);
  });

  it('releases only its own claim: never another guard’s, never one that changed hands', async () => {
    const { client } = await clients.connect(kind);
    const admin = await clients.admin();
    const continuation = await pauseForApproval();
    const key = `${PREFIX}${await resumeClaimKey(continuation)}`;
    const a = createRedisResumeGuard({ client });
    const b = createRedisResumeGuard({ client });
    const copy = (): HarnessContinuation => structuredClone(continuation);
    const mine = copy();
    expect(await a.claim(mine)).toBe(true);
    const theirs = copy();
    expect(await b.claim(theirs)).toBe(false);
    await b.release!(theirs);
    await a.release!(copy());
    expect(await admin.exists(key)).toBe(1);
    await admin.set(key, 'someone-else');
    await a.release!(mine);
    expect(await admin.get(key)).toBe('someone-else');
    await admin.del(key);
    expect(await a.claim(mine)).toBe(true);
    await a.release!(mine);
    expect(await admin.exists(key)).toBe(0);
  });
});

describe('createRedisResumeGuard options', () => {
  it('refuses a missing or foreign client and out-of-range options', () => {
    expect(() => createRedisResumeGuard(undefined as never)).toThrow(expect.objectContaining({ field: 'client' }));
    expect(() => createRedisResumeGuard({ client: {} as never })).toThrow(expect.objectContaining({ field: 'client', message: expect.stringMatching(/neither call nor sendCommand/) }));
    const client = { sendCommand: async () => 'OK' };
    expect(() => createRedisResumeGuard({ client, claimTtlMs: 0 })).toThrow(expect.objectContaining({ field: 'claimTtlMs' }));
    expect(() => createRedisResumeGuard({ client, claimTtlMs: 1.5 })).toThrow(expect.objectContaining({ field: 'claimTtlMs' }));
    expect(() => createRedisResumeGuard({ client, keyPrefix: 1 as never })).toThrow(expect.objectContaining({ field: 'keyPrefix' }));
  });
});
