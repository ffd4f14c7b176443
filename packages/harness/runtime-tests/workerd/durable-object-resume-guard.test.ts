// createDurableObjectResumeGuard and ResumeGuardDurableObject in workerd (the Cloudflare Workers
// runtime), built from dist as a user's Worker bundles it, on SQLite- and KV-backed storage.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SECRET, pauseForApproval } from '../../src/core/__fixtures__/approval-pause.js';
import type { HarnessContinuation } from '../../src/index.js';
import { startWorkerd, type RunningWorkerd } from './start-workerd.js';

const distEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

const storages = [
  ['SQLite-backed', 'true'],
  ['KV-backed', 'false'],
] as const;

describe.each(storages)('the Durable Object resume guard in workerd (%s storage)', (_name, enableSql) => {
  let workerd: RunningWorkerd | undefined;

  beforeAll(async () => {
    expect(existsSync(distEntry), 'build the package first (npm test does)').toBe(true);
    workerd = await startWorkerd(
      fileURLToPath(new URL('./resume-guard-worker.mjs', import.meta.url)),
      `durableObjectNamespaces = [(className = "TestResumeGuard", uniqueKey = "resume-guard-test", enableSql = ${enableSql})],
  durableObjectStorage = (inMemory = void),
  bindings = [
    (name = "CONTINUATION_SECRET", text = "${FIXTURE_SECRET}"),
    (name = "RESUME_GUARD", durableObjectNamespace = "TestResumeGuard"),
  ],`,
    );
  }, 60_000);

  afterAll(() => {
    workerd?.stop();
  });

  async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(new URL(path, workerd!.url), { method: 'POST', body: JSON.stringify(body) });
    expect(response.status, workerd!.stderr()).toBe(200);
    return (await response.json()) as Record<string, unknown>;
  }
  const claim = (continuation: HarnessContinuation, remainingMs?: number) => post('/claim', { continuation, remainingMs });

  it('lets exactly one of 32 parallel requests resume a continuation and run the tool', async () => {
    const continuation = await pauseForApproval();
    const before = (await post('/tool-runs', {})).toolRuns as number;
    const results = await Promise.all(Array.from({ length: 32 }, () => post('/resume', { continuation })));
    expect(results.filter((result) => result.outcome === 'completed')).toHaveLength(1);
    const refused = results.filter((result) => result.outcome !== 'completed');
    expect(refused).toHaveLength(31);
    for (const result of refused) {
      expect(result).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid', error: expect.stringMatching(/already resumed/) });
    }
    expect((await post('/tool-runs', {})).toolRuns).toBe(before + 1);
    expect(await post('/resume', { continuation })).toMatchObject({ stopReason: 'continuation_invalid' });
  }, 30_000);

  it('keys hostile identifiers (__proto__, 10 KB, unicode, NUL) apart, each claimed once', async () => {
    const base = await pauseForApproval();
    const variants = [
      { id: '__proto__' },
      { turnId: 'constructor', id: '__proto__' },
      { id: 'x'.repeat(10 * 1024) },
      { id: 'Ünïcødé 🦀 \u202e' },
      { id: 'a\u0000b' },
      { id: 'a\u0000c' },
    ].map((changes) => ({ ...base, ...changes }));
    for (const continuation of variants) expect(await claim(continuation)).toEqual({ claimed: true });
    for (const continuation of variants) expect(await claim(continuation)).toEqual({ claimed: false });
  });

  it('forgets a claim once its continuation expired: taken over by the next claim, deleted by the alarm', async () => {
    const continuation = { ...(await pauseForApproval()), expiresAt: '2030-01-01T00:00:00.000Z' };
    expect(await claim(continuation)).toEqual({ claimed: true });
    // A claim that lives 1 ms (the continuation's remaining life, as the Worker's clock sees it).
    const short = { ...continuation, id: 'short-lived' };
    expect(await claim(short, 1)).toEqual({ claimed: true });
    let takenOver = false;
    for (let attempt = 0; attempt < 500 && !takenOver; attempt += 1) takenOver = (await claim(short, 60_000)).claimed === true;
    expect(takenOver).toBe(true);
    expect(await claim(short, 60_000)).toEqual({ claimed: false });
    expect(await claim(continuation)).toEqual({ claimed: false });

    const { resumeClaimKey } = await import('../../src/index.js');
    const alarmed = { ...continuation, id: 'alarmed' };
    const name = await resumeClaimKey(alarmed);
    expect(await claim(alarmed, 1)).toEqual({ claimed: true });
    let stored = 1;
    for (let attempt = 0; attempt < 500 && stored !== 0; attempt += 1) {
      stored = JSON.parse((await post('/object', { name, path: '/stored', method: 'GET' })).body as string).stored as number;
    }
    expect(stored).toBe(0);
  }, 30_000);

  it('passes runResumeGuardConformance inside the Worker (processes and store control skipped, with the reason)', async () => {
    const report = (await post('/conformance', {})) as { ok: boolean; checks: { name: string; ok: boolean; skipped?: true; detail?: string }[]; throughput?: { claims: number } };
    expect(report.checks.filter((check) => !check.ok), JSON.stringify(report.checks, null, 2)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checks.filter((check) => check.skipped === true).map((check) => check.name)).toEqual(['process-race', 'killed-claimer', 'store-down', 'store-restart']);
    expect(report.throughput).toMatchObject({ claims: 10_000 });
  }, 120_000);

  it('releases only the claim the releasing guard made', async () => {
    const continuation = await pauseForApproval();
    // first claims; second is refused and its release is a no-op; first releases; third claims.
    expect(await post('/release', { continuation })).toEqual({ seen: [true, false, false, true, false] });
  });

  it('answers only well-formed requests: anything else is 400 or 404', async () => {
    const name = 'a'.repeat(64);
    const token = '0f5b1c8e-6a53-4b1e-9d1e-2f3a4b5c6d7e';
    const raw = (path: string, method: string, body?: string) => post('/object', { name, path, method, body });
    const claimBody = (fields: Record<string, unknown>) => JSON.stringify({ key: name, token, ttlMs: 60_000, ...fields });
    for (const body of [
      'not json',
      '{}',
      'null',
      claimBody({ key: '__proto__' }),
      claimBody({ key: 'A'.repeat(64) }),
      claimBody({ token: '__proto__' }),
      claimBody({ ttlMs: 0 }),
      claimBody({ ttlMs: 1.5 }),
      claimBody({ ttlMs: '60000' }),
      claimBody({ pad: 'x'.repeat(2048) }),
    ]) {
      expect(await raw('/claim', 'POST', body)).toMatchObject({ status: 400 });
    }
    expect(await raw('/release', 'POST', JSON.stringify({ key: name }))).toMatchObject({ status: 400 });
    expect(await raw('/claim', 'GET')).toMatchObject({ status: 404 });
    expect(await raw('/other', 'POST', '{}')).toMatchObject({ status: 404 });
    expect(await raw('/claim', 'POST', claimBody({}))).toMatchObject({ status: 200, body: '{"claimed":true}' });
    expect(await raw('/release', 'POST', claimBody({ token: token.replace('0', '1') }))).toMatchObject({ status: 200, body: '{"released":false}' });
    expect(await raw('/release', 'POST', claimBody({}))).toMatchObject({ status: 200, body: '{"released":true}' });
    expect(await raw('/claim', 'POST', claimBody({ ttlMs: Number.MAX_SAFE_INTEGER }))).toMatchObject({ status: 200, body: '{"claimed":true}' });
    expect(await post('/not-a-namespace', {})).toEqual({ error: 'HarnessConfigError', field: 'namespace' });
  });
});
