import type { HarnessResumeGuard } from '../../core/types/continuation.js';
import type { HarnessResult } from '../../core/types/result.js';
import { CheckFailure, describeResult, elapse, expectThat, type CheckContext, type CheckOutcome } from './check-context.js';
import { CONFORMANCE_APPROVAL, conformanceHarness, pauseConformanceTurn } from './conformance-scenario.js';
import type { ResumeGuardStoreControl } from './conformance-types.js';

/** Margin over the turn's `maxElapsedMs` a refusal may take (timers, a loaded machine). */
const DEADLINE_SLACK_MS = 1_000;

/** Resumes a fresh continuation under `guard`; returns the result, the tool runs and the time taken. */
async function resumeFresh(context: CheckContext, guard: HarnessResumeGuard, maxElapsedMs: number) {
  const continuation = await pauseConformanceTurn(context.secret);
  const { harness, runs } = conformanceHarness({ guard, secret: context.secret, maxElapsedMs });
  const started = Date.now();
  const result = await harness.resumeTurn(continuation, CONFORMANCE_APPROVAL);
  return { continuation, result, runs: runs(), tookMs: Date.now() - started };
}

/**
 * Once the store is back, the same guard must work again within `recoveryMs`: fresh
 * continuations are resumed until one completes (a short pause between tries, as a product's
 * retry would). Resolves the time it took.
 */
async function untilWorking(context: CheckContext, guard: HarnessResumeGuard): Promise<number> {
  const started = Date.now();
  let last: HarnessResult | undefined;
  while (Date.now() - started < context.options.recoveryMs && !context.signal.aborted) {
    const attempt = await resumeFresh(context, guard, context.options.storeDownMaxElapsedMs);
    if (attempt.result.outcome === 'completed') return Date.now() - started;
    last = attempt.result;
    await elapse(100);
  }
  throw new CheckFailure(
    `the guard did not work again within ${String(context.options.recoveryMs)} ms of the store's restart; last: ${last === undefined ? 'none' : `${describeResult(last)} ${last.error?.message ?? ''}`}`,
  );
}

/** The store stops mid-run: a resume ends `failed` / `continuation_invalid` within the turn's `maxElapsedMs`, runs nothing; the guard works again once it is back. */
export async function storeDown(store: ResumeGuardStoreControl, context: CheckContext): Promise<CheckOutcome> {
  const guard = await context.makeGuard();
  const limit = context.options.storeDownMaxElapsedMs;
  const warm = await resumeFresh(context, guard, limit);
  expectThat(warm.result.outcome === 'completed', () => `before the store stopped, a resume should complete; got ${describeResult(warm.result)}`);
  await store.stop();
  let down: Awaited<ReturnType<typeof resumeFresh>>;
  try {
    down = await resumeFresh(context, guard, limit);
  } finally {
    await store.start();
  }
  expectThat(
    down.result.outcome === 'failed' && down.result.stopReason === 'continuation_invalid' && down.runs === 0 && down.tookMs <= limit + DEADLINE_SLACK_MS,
    () =>
      `with the store down, expected failed/continuation_invalid within ${String(limit)} ms and no tool run; got ${describeResult(down.result)} ` +
      `after ${String(down.tookMs)} ms, tool ran ${String(down.runs)}×`,
  );
  const recoveredMs = await untilWorking(context, guard);
  const { harness, runs } = conformanceHarness({ guard, secret: context.secret, maxElapsedMs: limit });
  const retry = await harness.resumeTurn(down.continuation, CONFORMANCE_APPROVAL);
  expectThat(runs() <= 1, () => 'the retried continuation ran the tool more than once');
  return {
    ok: true,
    detail:
      `store down: ${describeResult(down.result)} after ${String(down.tookMs)} ms (limit ${String(limit)} ms), nothing ran; ` +
      `working again ${String(recoveredMs)} ms after the restart; retrying the refused continuation: ${describeResult(retry)}`,
  };
}

/** The store restarts: the guard works again, and a claim made before the restart still holds (or the store says it forgets). */
export async function storeRestart(store: ResumeGuardStoreControl, context: CheckContext): Promise<CheckOutcome> {
  const guard = await context.makeGuard();
  const limit = context.options.storeDownMaxElapsedMs;
  const before = await resumeFresh(context, guard, limit);
  expectThat(before.result.outcome === 'completed', () => `before the restart, a resume should complete; got ${describeResult(before.result)}`);
  await store.stop();
  await store.start();
  const recoveredMs = await untilWorking(context, guard);
  const { harness, runs } = conformanceHarness({ guard, secret: context.secret, maxElapsedMs: limit });
  const again = await harness.resumeTurn(before.continuation, CONFORMANCE_APPROVAL);
  if (again.error?.code === 'continuation_already_resumed') {
    return { ok: true, detail: `working again ${String(recoveredMs)} ms after the restart; a claim made before the restart still holds` };
  }
  const lost = again.outcome === 'completed' && runs() === 1;
  expectThat(
    lost && store.losesClaimsOnRestart === true,
    () =>
      lost
        ? 'the store lost a claim in the restart, so a resumed continuation ran again; declare losesClaimsOnRestart if that is what this store does (Redis without persistence), and say so in your docs'
        : `after the restart, resuming a continuation resumed before it: ${describeResult(again)}`,
  );
  return {
    ok: true,
    detail: `working again ${String(recoveredMs)} ms after the restart; the store lost its claims in the restart (declared losesClaimsOnRestart): a continuation resumed before it ran again`,
  };
}
