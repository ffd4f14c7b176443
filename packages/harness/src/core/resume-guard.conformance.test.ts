import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeResumeGuardClaimers } from '@agent-assistant/harness/testing/node';
import { createFileResumeGuard, createMemoryResumeGuard, resumeClaimKey, type HarnessResumeGuard } from '../index.js';
import { runResumeGuardConformance, type ResumeGuardConformanceReport } from '../testing/index.js';

const built = fileURLToPath(new URL('../../dist/resume-guard-claimer.js', import.meta.url));
const guards = new URL('../__fixtures__/conformance-guards.mjs', import.meta.url);

function expectConformant(report: ResumeGuardConformanceReport) {
  expect(report.checks.filter((check) => !check.ok), JSON.stringify(report.checks, null, 2)).toEqual([]);
  expect(report.ok).toBe(true);
}

describe('runResumeGuardConformance on the built-in guards', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'conformance-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('passes the memory guard, skipping the process and store checks with the reason', async () => {
    const guard = createMemoryResumeGuard();
    const report = await runResumeGuardConformance(() => guard, {
      processes: { skip: 'a memory guard holds in one process only' },
      store: { skip: 'a memory guard is its own store' },
    });
    expectConformant(report);
    const skipped = report.checks.filter((check) => check.skipped === true);
    expect(skipped.map((check) => check.name)).toEqual(['process-race', 'killed-claimer', 'store-down', 'store-restart']);
    expect(skipped[0]!.detail).toBe('skipped: a memory guard holds in one process only');
    expect(report.throughput).toMatchObject({ claims: 10_000 });
    expect(report.checks.find((check) => check.name === 'throughput')!.detail).toMatch(/10000 claims .* claims\/s; one claim alone: p50/);
  }, 60_000);

  it('passes the file guard across 16 processes, a killed claimer and a store that disappears and comes back', async () => {
    expect(existsSync(built), 'build the package first (npm test does): dist/resume-guard-claimer.js is missing').toBe(true);
    const directory = join(root, 'file-claims');
    const away = join(root, 'file-claims-away');
    await mkdir(directory, { recursive: true });
    const report = await runResumeGuardConformance(() => createFileResumeGuard({ directory }), {
      processes: createNodeResumeGuardClaimers({ module: guards, exportName: 'fileGuard', args: { directory } }),
      store: {
        // The claims directory moves away and a plain file takes its place: every claim fails (ENOTDIR).
        stop: async () => {
          await rename(directory, away);
          await writeFile(directory, 'not a directory');
        },
        start: async () => {
          await rm(directory);
          await rename(away, directory);
        },
      },
    });
    expectConformant(report);
    expect(report.checks.map((check) => check.name)).toEqual([
      'claim-once',
      'concurrent-claims',
      'resume-once',
      'expired-claims',
      'hostile-ids',
      'throughput',
      'process-race',
      'killed-claimer',
      'store-down',
      'store-restart',
    ]);
    expect(report.checks.find((check) => check.name === 'store-restart')!.detail).toMatch(/still holds/);
  }, 120_000);

  it('fails the process checks of a guard that holds in one process only (the memory guard in every claimer)', async () => {
    const guard = createMemoryResumeGuard();
    const report = await runResumeGuardConformance(() => guard, {
      processes: createNodeResumeGuardClaimers({ module: guards, exportName: 'memoryGuard' }),
      store: { skip: 'a memory guard is its own store' },
      throughputClaims: 100,
      claimers: 4,
    });
    expect(report.checks.filter((check) => !check.ok).map((check) => check.name)).toEqual(['process-race', 'killed-claimer']);
    expect(report.checks.find((check) => check.name === 'process-race')!.detail).toMatch(/tool ran 4×/);
  }, 60_000);

  it('catches a guard that checks then sets (not atomic), and one that forgets a claim at the expiry', async () => {
    const skip = { processes: { skip: 'in-process guard' }, store: { skip: 'in-process guard' }, throughputClaims: 100 };
    const seen = new Set<string>();
    const racy: HarnessResumeGuard = {
      async claim(continuation) {
        const key = await resumeClaimKey(continuation);
        const taken = seen.has(key);
        await new Promise((resolve) => setImmediate(resolve));
        if (taken) return false;
        seen.add(key);
        return true;
      },
    };
    const racyReport = await runResumeGuardConformance(() => racy, skip);
    expect(racyReport.ok).toBe(false);
    expect(racyReport.checks.filter((check) => !check.ok).map((check) => check.name)).toEqual(['concurrent-claims', 'resume-once']);
    expect(racyReport.checks.find((check) => check.name === 'resume-once')!.detail).toMatch(/tool ran (?:[2-9]|1[0-6])×/);

    const expiring = new Map<string, number>();
    const forgetful: HarnessResumeGuard = {
      async claim(continuation) {
        const key = await resumeClaimKey(continuation);
        const until = expiring.get(key);
        if (until !== undefined && until > Date.now()) return false;
        const expiresAt = Date.parse(continuation.expiresAt ?? '');
        expiring.set(key, Number.isFinite(expiresAt) ? expiresAt : Infinity);
        return true;
      },
    };
    const forgetfulReport = await runResumeGuardConformance(() => forgetful, skip);
    expect(forgetfulReport.checks.filter((check) => !check.ok).map((check) => check.name)).toEqual(['expired-claims']);
    expect(forgetfulReport.checks.find((check) => check.name === 'expired-claims')!.detail).toMatch(/must hold for RESUME_CLAIM_GRACE_MS/);
  });

  it('fails, never skips silently, when the process and store options are missing', async () => {
    const guard = createMemoryResumeGuard();
    const report = await runResumeGuardConformance(() => guard, { throughputClaims: 100 });
    expect(report.ok).toBe(false);
    expect(report.checks.filter((check) => !check.ok).map((check) => check.name)).toEqual(['process-race', 'killed-claimer', 'store-down', 'store-restart']);
    expect(report.checks.find((check) => check.name === 'process-race')!.detail).toMatch(/options\.processes is missing/);
  });
});
