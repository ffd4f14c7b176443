import { RESUME_CLAIM_GRACE_MS } from '../../core/continuation/resume-claim-key.js';
import type { HarnessContinuation } from '../../core/types/continuation.js';
import { createManualClock } from '../manual-clock.js';
import { CheckFailure, describeResult, expectThat, tally, type CheckContext, type CheckOutcome } from './check-context.js';
import { CONFORMANCE_APPROVAL, conformanceHarness, pauseConformanceTurn } from './conformance-scenario.js';
import type { ResumeGuardClaimer, ResumeGuardClaimerResult, ResumeGuardClaimers } from './conformance-types.js';

/** Resumes get this long in claimer processes: the deadline is not what these checks test. */
const CLAIMER_MAX_ELAPSED_MS = 60_000;

/** Claimers started for one check; all are killed when it ends, however it ends. */
class ClaimerGroup {
  private readonly started: ResumeGuardClaimer[] = [];

  constructor(
    private readonly claimers: ResumeGuardClaimers,
    private readonly context: CheckContext,
  ) {
    context.signal.addEventListener('abort', () => void this.killAll(), { once: true });
  }

  start(continuation: HarnessContinuation, holdTool: boolean): ResumeGuardClaimer {
    const claimer = this.claimers.start({ continuation, continuationSecret: this.context.secret, holdTool, maxElapsedMs: CLAIMER_MAX_ELAPSED_MS });
    // Observed later (or not at all, for a killed claimer): never an unhandled rejection.
    claimer.ready.catch(() => undefined);
    claimer.result.catch(() => undefined);
    this.started.push(claimer);
    return claimer;
  }

  /** Starts `count` claimers, waits until every one is ready, then lets them all go at once. */
  async race(continuation: HarnessContinuation, count: number): Promise<ResumeGuardClaimerResult[]> {
    const group = Array.from({ length: count }, () => this.start(continuation, false));
    await Promise.all(group.map((claimer) => claimer.ready));
    for (const claimer of group) claimer.go();
    return Promise.all(group.map((claimer) => claimer.result));
  }

  async killAll(): Promise<void> {
    await Promise.all(this.started.map((claimer) => claimer.kill().catch(() => undefined)));
  }
}

async function withClaimers<T>(claimers: ResumeGuardClaimers, context: CheckContext, body: (group: ClaimerGroup) => Promise<T>): Promise<T> {
  const group = new ClaimerGroup(claimers, context);
  try {
    return await body(group);
  } finally {
    await group.killAll();
  }
}

function describeClaimer(result: ResumeGuardClaimerResult): string {
  return `${result.outcome}/${result.stopReason}${result.code === undefined ? '' : ` (${result.code})`}`;
}

/** `claimers` processes, each with its own guard, race for one continuation: exactly one runs the tool. */
export function processRace(claimers: ResumeGuardClaimers, context: CheckContext): Promise<CheckOutcome> {
  return withClaimers(claimers, context, async (group) => {
    const continuation = await pauseConformanceTurn(context.secret);
    const results = await group.race(continuation, context.options.claimers);
    const runs = results.reduce((sum, result) => sum + result.toolRuns, 0);
    const completed = results.filter((result) => result.outcome === 'completed').length;
    const refused = results.filter((result) => result.outcome === 'failed' && result.stopReason === 'continuation_invalid');
    expectThat(
      runs === 1 && completed === 1 && refused.length === results.length - 1,
      () => `expected the tool to run once, 1 completed and the rest failed/continuation_invalid; tool ran ${String(runs)}×, results: ${tally(results.map(describeClaimer))}`,
    );
    return {
      ok: true,
      detail: `${String(results.length)} processes raced: the tool ran once; refused: ${tally(refused.map(describeClaimer))}`,
    };
  });
}

/**
 * A claimer killed between its claim and the end of its run: nobody runs the continuation again,
 * in another process or this one; the documented recovery is its expiry.
 */
export function killedClaimer(claimers: ResumeGuardClaimers, context: CheckContext): Promise<CheckOutcome> {
  return withClaimers(claimers, context, async (group) => {
    const ttlMs = 10 * 60_000;
    const pausedAt = Date.now();
    const continuation = await pauseConformanceTurn(context.secret, { ttlMs, clock: createManualClock(pausedAt) });
    const victim = group.start(continuation, true);
    await victim.ready;
    victim.go();
    await Promise.race([
      victim.toolStarted,
      victim.result.then((result) => {
        throw new CheckFailure(`the first claimer should have claimed and started the tool; it ended ${describeClaimer(result)}`);
      }),
    ]);
    await victim.kill();
    const results = await group.race(continuation, 3);
    const local = conformanceHarness({ guard: await context.makeGuard(), secret: context.secret });
    const inProcess = await local.harness.resumeTurn(continuation, CONFORMANCE_APPROVAL);
    const runs = results.reduce((sum, result) => sum + result.toolRuns, 0) + local.runs();
    expectThat(
      runs === 0 &&
        results.every((result) => result.code === 'continuation_already_resumed') &&
        inProcess.error?.code === 'continuation_already_resumed',
      () =>
        `after the claimer was killed mid-tool, every later resume must be refused as already resumed; tool ran ${String(runs)}× more, ` +
        `processes: ${tally(results.map(describeClaimer))}, in-process: ${describeResult(inProcess)}`,
    );
    const expired = conformanceHarness({ guard: await context.makeGuard(), secret: context.secret, clock: createManualClock(pausedAt + ttlMs) });
    const afterExpiry = await expired.harness.resumeTurn(continuation, CONFORMANCE_APPROVAL);
    expectThat(
      afterExpiry.stopReason === 'continuation_invalid' && /expired/.test(afterExpiry.error?.message ?? '') && expired.runs() === 0,
      () => `once expired, the continuation must be refused as expired; got ${describeResult(afterExpiry)}`,
    );
    return {
      ok: true,
      detail:
        'a claimer killed while its tool ran: 3 processes and 1 in-process resume were refused (continuation_already_resumed); ' +
        `recovery is the expiry: after it the continuation is refused as expired, and the store may drop the claim ${String(RESUME_CLAIM_GRACE_MS / 60_000)} minutes later`,
    };
  });
}
