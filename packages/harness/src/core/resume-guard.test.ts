import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createFileResumeGuard,
  createHarness,
  createMemoryResumeGuard,
  RESUME_CLAIM_GRACE_MS,
  resumeClaimKey,
  type HarnessResumeGuard,
  type HarnessResult,
} from '../index.js';
import { createManualClock, createScriptedModel } from '../testing/index.js';
import { APPROVE_MAIL, FIXTURE_SECRET, mailTools, pauseForApproval, resumingHarness } from './__fixtures__/approval-pause.js';

const directories: string[] = [];
async function claimsDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'resume-claims-'));
  directories.push(directory);
  return join(directory, 'claims');
}
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

function expectReplayRefused(result: HarnessResult) {
  expect(result).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid', usage: { toolCalls: 0 } });
  expect(result.metadata?.error?.message).toMatch(/was already resumed \(resumeGuard refused a second claim\)/);
}

describe('exactly-once resume (issue 9, class 9)', () => {
  it('without a guard a replay runs the approved tool again — what the guard is for', async () => {
    const continuation = await pauseForApproval();
    const { harness, tools } = resumingHarness();
    await harness.resumeTurn(continuation, APPROVE_MAIL);
    await harness.resumeTurn(continuation, APPROVE_MAIL);
    expect(tools.calls).toHaveLength(2);
  });

  describe.each([
    ['memory', async () => createMemoryResumeGuard()],
    ['file', async () => createFileResumeGuard({ directory: await claimsDirectory() })],
  ])('%s guard', (_name, makeGuard) => {
    it('runs the approved tool once; a replay ends continuation_invalid and runs nothing', async () => {
      const continuation = await pauseForApproval();
      const { harness, tools } = resumingHarness({ resumeGuard: await makeGuard() });
      expect((await harness.resumeTurn(continuation, APPROVE_MAIL)).outcome).toBe('completed');
      expectReplayRefused(await harness.resumeTurn(continuation, APPROVE_MAIL));
      expectReplayRefused(await harness.resumeTurn(JSON.stringify(continuation), APPROVE_MAIL));
      expect(tools.calls).toHaveLength(1);
    });

    it('lets exactly one of ten concurrent resumes through', async () => {
      const continuation = await pauseForApproval();
      const { harness, tools } = resumingHarness({ resumeGuard: await makeGuard() });
      const results = await Promise.all(Array.from({ length: 10 }, () => harness.resumeTurn(continuation, APPROVE_MAIL)));
      expect(results.filter((result) => result.outcome === 'completed')).toHaveLength(1);
      results.filter((result) => result.outcome !== 'completed').forEach(expectReplayRefused);
      expect(tools.calls).toHaveLength(1);
    });

    it('does not spend the claim on a refused continuation or a caller mistake', async () => {
      const continuation = await pauseForApproval();
      const { harness, tools } = resumingHarness({ resumeGuard: await makeGuard() });
      const tampered = { ...continuation, turnId: 'turn-other' };
      expect((await harness.resumeTurn(tampered, APPROVE_MAIL)).metadata?.error?.message).toMatch(/signature/);
      await expect(harness.resumeTurn(continuation, { type: 'approval', decisions: {} })).rejects.toMatchObject({
        name: 'HarnessConfigError',
      });
      expect((await harness.resumeTurn(continuation, { type: 'deferred' })).stopReason).toBe('continuation_invalid');
      expect((await harness.resumeTurn(continuation, APPROVE_MAIL)).outcome).toBe('completed');
      expect(tools.calls).toHaveLength(1);
    });

    it('lets the next pause of the resumed turn be resumed once too', async () => {
      const resumeGuard = await makeGuard();
      const first = await pauseForApproval();
      const tools = mailTools();
      const harness = createHarness({
        model: createScriptedModel([
          { type: 'tool_request', calls: [{ id: 'mail-2', name: 'send_email', input: { to: 'bob@example.com' } }] },
          { type: 'final_answer', text: 'Both sent.' },
        ]),
        tools,
        continuationSecret: FIXTURE_SECRET,
        resumeGuard,
      });
      const second = await harness.resumeTurn(first, APPROVE_MAIL);
      expect(second.outcome).toBe('awaiting_approval');
      const decisions = { type: 'approval', decisions: { 'mail-2': 'approved' } } as const;
      expect((await harness.resumeTurn(second.continuation, decisions)).outcome).toBe('completed');
      expectReplayRefused(await harness.resumeTurn(second.continuation, decisions));
      expect(tools.calls.map((call) => call.id)).toEqual(['mail-1', 'mail-2']);
    });
  });

  it('holds across harness instances sharing one memory guard', async () => {
    const continuation = await pauseForApproval();
    const resumeGuard = createMemoryResumeGuard();
    const a = resumingHarness({ resumeGuard });
    const b = resumingHarness({ resumeGuard });
    expect((await a.harness.resumeTurn(continuation, APPROVE_MAIL)).outcome).toBe('completed');
    expectReplayRefused(await b.harness.resumeTurn(continuation, APPROVE_MAIL));
    expect(b.tools.calls).toHaveLength(0);
  });

  it('holds across separate file guards on one directory, and keys claim files by resumeClaimKey', async () => {
    const directory = await claimsDirectory();
    const continuation = await pauseForApproval();
    const a = resumingHarness({ resumeGuard: createFileResumeGuard({ directory }) });
    const b = resumingHarness({ resumeGuard: createFileResumeGuard({ directory: `${directory}/` }) });
    expect((await a.harness.resumeTurn(continuation, APPROVE_MAIL)).outcome).toBe('completed');
    expectReplayRefused(await b.harness.resumeTurn(continuation, APPROVE_MAIL));
    expect(await readdir(directory)).toEqual([`${await resumeClaimKey(continuation)}.claim`]);
    expect(await resumeClaimKey(continuation)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('prunes claim files of expired continuations only', async () => {
    const directory = await claimsDirectory();
    const clock = createManualClock();
    const expiring = await pauseForApproval({ continuationTtlMs: 60_000, clock });
    const lasting = await pauseForApproval({ clock });
    const guard = createFileResumeGuard({ directory, now: () => clock.now() });
    const { harness } = resumingHarness({ resumeGuard: guard, clock });
    await harness.resumeTurn(expiring, APPROVE_MAIL);
    await harness.resumeTurn(lasting, APPROVE_MAIL);
    expect(await guard.prune()).toBe(0);
    clock.advance(60_000);
    expect(await guard.prune()).toBe(0);
    clock.advance(RESUME_CLAIM_GRACE_MS);
    expect(await guard.prune()).toBe(1);
    expect(await readdir(directory)).toEqual([`${await resumeClaimKey(lasting)}.claim`]);
    expect((await harness.resumeTurn(expiring, APPROVE_MAIL)).metadata?.error?.message).toMatch(/expired/);
  });

  it.each([
    ['throws', { claim: () => Promise.reject(new Error('store down')) }, /resumeGuard.claim failed .*store down/],
    ['throws synchronously', { claim: () => { throw new Error('sync'); } }, /resumeGuard.claim failed .*sync/],
    ['resolves undefined', { claim: () => Promise.resolve(undefined as unknown as boolean) }, /must resolve to true or false/],
  ] satisfies [string, HarnessResumeGuard, RegExp][])('fails closed when the claim %s', async (_name, resumeGuard, reason) => {
    const continuation = await pauseForApproval();
    const { harness, tools } = resumingHarness({ resumeGuard });
    const result = await harness.resumeTurn(continuation, APPROVE_MAIL);
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid' });
    expect(result.metadata?.error?.message).toMatch(reason);
    expect(tools.calls).toHaveLength(0);
  });

  it('fails closed when the caller aborts a claim that never settles', async () => {
    const continuation = await pauseForApproval();
    let claimed!: () => void;
    const claimStarted = new Promise<void>((resolve) => (claimed = resolve));
    const { harness, tools } = resumingHarness({
      resumeGuard: {
        claim: () => {
          claimed();
          return new Promise<boolean>(() => undefined);
        },
      },
    });
    const controller = new AbortController();
    const pending = harness.resumeTurn(continuation, APPROVE_MAIL, { signal: controller.signal });
    await claimStarted;
    controller.abort();
    expect((await pending).stopReason).toBe('continuation_invalid');
    expect(tools.calls).toHaveLength(0);
  });

  it('refuses a resumeGuard without claim or with a release that is not a function, and a file guard without a directory', () => {
    expect(() => createHarness({ model: createScriptedModel([]), resumeGuard: {} as HarnessResumeGuard })).toThrow(
      expect.objectContaining({ field: 'resumeGuard.claim' }),
    );
    expect(() => createHarness({ model: createScriptedModel([]), resumeGuard: { claim: async () => true, release: 1 } as never })).toThrow(
      expect.objectContaining({ field: 'resumeGuard.release' }),
    );
    expect(() => createFileResumeGuard({ directory: ' ' })).toThrow(expect.objectContaining({ field: 'directory' }));
    expect(() => createFileResumeGuard(undefined as never)).toThrow(expect.objectContaining({ field: 'directory' }));
  });

  it('forgets a memory claim only after its continuation expired (as the set grows)', async () => {
    const clock = createManualClock();
    const resumeGuard = createMemoryResumeGuard({ now: () => clock.now() });
    const continuation = await pauseForApproval({ continuationTtlMs: 60_000, clock });
    expect(await resumeGuard.claim(continuation)).toBe(true);
    const others = Array.from({ length: 1_100 }, (_, index) => ({ ...continuation, id: `other-${index}`, expiresAt: undefined }));
    for (const other of others.slice(0, 600)) expect(await resumeGuard.claim(other)).toBe(true);
    expect(await resumeGuard.claim(continuation)).toBe(false);
    clock.advance(60_000 + RESUME_CLAIM_GRACE_MS);
    for (const other of others.slice(600)) expect(await resumeGuard.claim(other)).toBe(true);
    expect(await resumeGuard.claim(continuation)).toBe(true);
    expect(await resumeGuard.claim(others[0]!)).toBe(false);
  });
});
