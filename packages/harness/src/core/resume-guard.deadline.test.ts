import { describe, expect, it } from 'vitest';
import type { HarnessContinuation, HarnessResumeGuard } from '../index.js';
import { createManualClock } from '../testing/index.js';
import { APPROVE_MAIL, pauseForApproval, resumingHarness } from './__fixtures__/approval-pause.js';

/** A guard whose claims stay pending until the test settles them, recording what it was asked. */
function controlledGuard() {
  const claims: { continuation: HarnessContinuation; settle: (value: boolean) => void; fail: (error: Error) => void }[] = [];
  const released: HarnessContinuation[] = [];
  let onRelease: (() => void) | undefined;
  let onClaim: (() => void) | undefined;
  const guard: HarnessResumeGuard = {
    claim: (continuation) =>
      new Promise<boolean>((resolve, reject) => {
        claims.push({ continuation, settle: resolve, fail: reject });
        onClaim?.();
      }),
    release: async (continuation) => {
      released.push(continuation);
      onRelease?.();
    },
  };
  const nextRelease = () => new Promise<void>((resolve) => (onRelease = resolve));
  const nextClaim = () => new Promise<void>((resolve) => (onClaim = resolve));
  return { guard, claims, released, nextRelease, nextClaim };
}

/** Lets every queued callback run (promise reactions included), without waiting on time. */
const drain = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a resume guard claim races the turn deadline (issue 28)', () => {
  it('ends failed / resume_claim_timeout within maxElapsedMs when the claim never answers, running nothing', async () => {
    const continuation = await pauseForApproval();
    const { harness, tools } = resumingHarness({
      limits: { maxElapsedMs: 150 },
      resumeGuard: { claim: () => new Promise<boolean>(() => undefined) },
    });
    const started = Date.now();
    const result = await harness.resumeTurn(continuation, APPROVE_MAIL);
    const took = Date.now() - started;
    expect(result).toMatchObject({
      outcome: 'failed',
      stopReason: 'continuation_invalid',
      error: { code: 'resume_claim_timeout', retryable: true, source: 'continuation' },
      metadata: { error: { code: 'resume_claim_timeout' } },
    });
    expect(result.error?.message).toMatch(/did not answer within the turn's maxElapsedMs/);
    expect(took).toBeGreaterThanOrEqual(140);
    expect(took).toBeLessThan(150 + 1_000);
    expect(tools.calls).toHaveLength(0);
  });

  it('hands a claim that lands after the deadline back to release (the same object), and a late refusal not', async () => {
    const continuation = await pauseForApproval();
    const { guard, claims, released, nextRelease } = controlledGuard();
    const { harness, tools } = resumingHarness({ limits: { maxElapsedMs: 50 }, resumeGuard: guard });
    const first = await harness.resumeTurn(continuation, APPROVE_MAIL);
    expect(first.error?.code).toBe('resume_claim_timeout');
    const releasing = nextRelease();
    claims[0]!.settle(true);
    await releasing;
    expect(released).toEqual([claims[0]!.continuation]);
    expect(released[0]).toBe(claims[0]!.continuation);

    const second = await harness.resumeTurn(continuation, APPROVE_MAIL);
    expect(second.error?.code).toBe('resume_claim_timeout');
    claims[1]!.settle(false);
    await drain();
    expect(released).toHaveLength(1);
    expect(tools.calls).toHaveLength(0);
  });

  it('releases a claim that threw (the store may have applied it), with code resume_claim_failed', async () => {
    const continuation = await pauseForApproval();
    const { guard, claims, released, nextClaim, nextRelease } = controlledGuard();
    const { harness, tools } = resumingHarness({ resumeGuard: guard });
    const claimed = nextClaim();
    const pending = harness.resumeTurn(continuation, APPROVE_MAIL);
    await claimed;
    const releasing = nextRelease();
    claims[0]!.fail(new Error('connection reset'));
    const result = await pending;
    await releasing;
    expect(result.error).toMatchObject({ code: 'resume_claim_failed', retryable: true });
    expect(result.error?.message).toMatch(/connection reset/);
    expect(released).toHaveLength(1);
    expect(tools.calls).toHaveLength(0);
  });

  it('never releases a claim whose resume started, even when the resumed run fails', async () => {
    const continuation = await pauseForApproval();
    const { guard, claims, released, nextClaim } = controlledGuard();
    const { harness, tools } = resumingHarness({
      resumeGuard: guard,
      hooks: {
        prepareStep: () => {
          throw new Error('hook broke');
        },
      },
    });
    const claimed = nextClaim();
    const pending = harness.resumeTurn(continuation, APPROVE_MAIL);
    await claimed;
    claims[0]!.settle(true);
    const result = await pending;
    await drain();
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'runtime_error' });
    expect(tools.calls).toHaveLength(1);
    expect(released).toHaveLength(0);
  });

  it('a release that throws or rejects changes nothing', async () => {
    const continuation = await pauseForApproval();
    for (const release of [() => Promise.reject(new Error('gone')), () => { throw new Error('sync'); }]) {
      const { harness, tools } = resumingHarness({
        resumeGuard: { claim: () => Promise.reject(new Error('down')), release } as HarnessResumeGuard,
      });
      const result = await harness.resumeTurn(continuation, APPROVE_MAIL);
      await drain();
      expect(result.error?.code).toBe('resume_claim_failed');
      expect(tools.calls).toHaveLength(0);
    }
  });

  it('reports a cancelled claim as resume_claim_cancelled', async () => {
    const continuation = await pauseForApproval();
    const { guard, nextClaim } = controlledGuard();
    const { harness } = resumingHarness({ resumeGuard: guard });
    const controller = new AbortController();
    const claimed = nextClaim();
    const pending = harness.resumeTurn(continuation, APPROVE_MAIL, { signal: controller.signal });
    await claimed;
    controller.abort();
    expect((await pending).error).toMatchObject({ code: 'resume_claim_cancelled', retryable: true });
  });

  it('counts the time of the claim against the resumed run: the claim and the run share one maxElapsedMs', async () => {
    const clock = createManualClock();
    const continuation = await pauseForApproval({ clock });
    const { harness, tools } = resumingHarness({
      clock,
      limits: { maxElapsedMs: 60_000 },
      resumeGuard: {
        claim: async () => {
          clock.advance(60_000);
          return true;
        },
      },
    });
    const result = await harness.resumeTurn(continuation, APPROVE_MAIL);
    // The approved call ran (it was already due); the model was not called again: time was up.
    expect(tools.calls).toHaveLength(1);
    expect(result.stopReason).toBe('timeout_reached');
    expect(result.usage.modelCalls).toBe(continuation.state.usage.modelCalls);
  });

  it('refuses a claim won after the continuation expired, so a store may forget claims after expiry plus the grace', async () => {
    const clock = createManualClock();
    const continuation = await pauseForApproval({ clock, continuationTtlMs: 1_000 });
    const { harness, tools } = resumingHarness({
      clock,
      resumeGuard: {
        claim: async () => {
          clock.advance(1_000);
          return true;
        },
      },
    });
    const result = await harness.resumeTurn(continuation, APPROVE_MAIL);
    expect(result).toMatchObject({ outcome: 'failed', stopReason: 'continuation_invalid', error: { code: 'continuation_invalid' } });
    expect(result.error?.message).toMatch(/expired .* while it was being claimed/);
    expect(tools.calls).toHaveLength(0);
  });
});
