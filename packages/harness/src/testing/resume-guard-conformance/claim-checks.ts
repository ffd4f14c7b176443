import { RESUME_CLAIM_GRACE_MS } from '../../core/continuation/resume-claim-key.js';
import type { HarnessContinuation, HarnessResumeGuard } from '../../core/types/continuation.js';
import { createManualClock } from '../manual-clock.js';
import {
  describeClaim,
  describeResult,
  elapse,
  expectThat,
  syntheticContinuation,
  tally,
  type CheckContext,
  type CheckOutcome,
} from './check-context.js';
import { CONFORMANCE_APPROVAL, conformanceHarness, pauseConformanceTurn } from './conformance-scenario.js';
import type { ResumeGuardThroughput } from './conformance-types.js';

/** First claim `true`, every later one `false` — from the same guard and from a fresh one over the same store. */
export async function claimOnce(context: CheckContext): Promise<CheckOutcome> {
  const guard = await context.makeGuard();
  const [a, b] = [syntheticContinuation(context), syntheticContinuation(context)];
  const seen = [await guard.claim(a), await guard.claim(a), await guard.claim(b), await (await context.makeGuard()).claim(a)];
  expectThat(
    seen[0] === true && seen[1] === false && seen[2] === true && seen[3] === false,
    () => `expected claims true, false (again), true (another continuation), false (a fresh guard); got ${seen.map(describeClaim).join(', ')}`,
  );
  return { ok: true, detail: 'first claim true; a second one false, also from a fresh guard over the same store' };
}

/** `claimers` guards claim one continuation at once: exactly one wins. */
export async function concurrentClaims(context: CheckContext): Promise<CheckOutcome> {
  const guards = await Promise.all(Array.from({ length: context.options.claimers }, () => context.makeGuard()));
  const continuation = syntheticContinuation(context);
  const seen = await Promise.all(guards.map((guard) => guard.claim(continuation)));
  const wins = seen.filter((value) => value === true).length;
  const losses = seen.filter((value) => value === false).length;
  expectThat(wins === 1 && losses === seen.length - 1, () => `expected 1 true and ${String(seen.length - 1)} false; got ${tally(seen.map(describeClaim))}`);
  return { ok: true, detail: `${String(seen.length)} concurrent claims on fresh guards: 1 true, ${String(losses)} false` };
}

/** `claimers` harnesses resume one real continuation at once: the tool runs once. */
export async function resumeOnce(context: CheckContext): Promise<CheckOutcome> {
  const continuation = await pauseConformanceTurn(context.secret);
  const resumers = await Promise.all(
    Array.from({ length: context.options.claimers }, async () => conformanceHarness({ guard: await context.makeGuard(), secret: context.secret })),
  );
  const results = await Promise.all(resumers.map(({ harness }) => harness.resumeTurn(continuation, CONFORMANCE_APPROVAL)));
  const runs = resumers.reduce((sum, resumer) => sum + resumer.runs(), 0);
  const completed = results.filter((result) => result.outcome === 'completed').length;
  const refused = results.filter((result) => result.error?.code === 'continuation_already_resumed').length;
  expectThat(
    runs === 1 && completed === 1 && refused === results.length - 1,
    () => `expected the tool to run once, 1 completed and the rest continuation_already_resumed; tool ran ${String(runs)}×, results: ${tally(results.map(describeResult))}`,
  );
  return { ok: true, detail: `${String(results.length)} concurrent resumes in one process: the tool ran once, ${String(refused)} refused` };
}

/**
 * Expiry: an expired continuation is refused before any claim; a claim made at or after a
 * continuation's expiry (a resume that verified it just before) still holds afterwards.
 */
export async function expiredClaims(context: CheckContext): Promise<CheckOutcome> {
  const ttlMs = 60_000;
  const pausedAt = Date.now();
  const continuation = await pauseConformanceTurn(context.secret, { ttlMs, clock: createManualClock(pausedAt) });
  const guard = await context.makeGuard();
  let asked = 0;
  const counting: HarnessResumeGuard = {
    claim: (claimed) => {
      asked += 1;
      return guard.claim(claimed);
    },
  };
  const late = conformanceHarness({ guard: counting, secret: context.secret, clock: createManualClock(pausedAt + ttlMs) });
  const refused = await late.harness.resumeTurn(continuation, CONFORMANCE_APPROVAL);
  expectThat(
    refused.stopReason === 'continuation_invalid' && /expired/.test(refused.error?.message ?? '') && asked === 0 && late.runs() === 0,
    () => `expected an expired continuation to be refused as expired before any claim; got ${describeResult(refused)}, ${String(asked)} claim(s), tool ran ${String(late.runs())}×`,
  );
  const now = Date.now();
  const edges: [string, HarnessContinuation][] = [
    ['expired 1 s before the claim', syntheticContinuation(context, { expiresAt: new Date(now - 1_000).toISOString() })],
    ['expiring 5 ms after the claim', syntheticContinuation(context, { expiresAt: new Date(now + 5).toISOString() })],
  ];
  const first = await Promise.all(edges.map(([, claimed]) => guard.claim(claimed)));
  await elapse(50);
  const second = await Promise.all(edges.map(([, claimed]) => guard.claim(claimed)));
  edges.forEach(([label], index) => {
    expectThat(
      first[index] === true && second[index] === false,
      () =>
        `a claim ${label} must hold for RESUME_CLAIM_GRACE_MS (${String(RESUME_CLAIM_GRACE_MS)} ms) past the expiry: ` +
        `expected true then (50 ms later) false; got ${describeClaim(first[index])}, ${describeClaim(second[index])}`,
    );
  });
  return { ok: true, detail: 'an expired continuation is refused before any claim; claims made at the expiry edge still hold 50 ms later' };
}

const HOSTILE_TEXT: readonly [string, string][] = [
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['toString', 'toString'],
  ['10 KB', 'k'.repeat(10_240)],
  ['unicode', 'ключ-🔑-\u202e-\u0000-\uffff-𝔘'],
  ['empty', ''],
  ['SQL', "'; DROP TABLE resume_claims; --"],
  ['path', '../../etc/passwd'],
  ['protocol', 'a\r\n*1\r\n$8\r\nFLUSHALL\r\n'],
  ['glob', '*?[]{}'],
];

/** Hostile ids, turn ids, tokens and expiries: each claims once, none collides or throws. */
export async function hostileIds(context: CheckContext): Promise<CheckOutcome> {
  const guard = await context.makeGuard();
  const cases: [string, HarnessContinuation][] = [];
  for (const [label, text] of HOSTILE_TEXT) {
    cases.push([`id ${label}`, syntheticContinuation(context, { id: text })]);
    cases.push([`turnId ${label}`, syntheticContinuation(context, { turnId: text })]);
    cases.push([`resumeToken ${label}`, syntheticContinuation(context, { resumeToken: text, id: `hostile-${label}` })]);
  }
  cases.push(['expiresAt not a date', syntheticContinuation(context, { expiresAt: 'not a date' })]);
  cases.push(['expiresAt far future', syntheticContinuation(context, { expiresAt: '9999-12-31T23:59:59.999Z' })]);
  for (const [label, continuation] of cases) {
    const first = await guard.claim(continuation);
    const second = await guard.claim(continuation);
    expectThat(first === true && second === false, () => `${label}: expected true then false; got ${describeClaim(first)}, ${describeClaim(second)}`);
  }
  const proto = await pauseConformanceTurn(context.secret, { turnId: '__proto__' });
  const { harness, runs } = conformanceHarness({ guard, secret: context.secret });
  const results = [await harness.resumeTurn(proto, CONFORMANCE_APPROVAL), await harness.resumeTurn(proto, CONFORMANCE_APPROVAL)];
  expectThat(
    results[0]!.outcome === 'completed' && results[1]!.error?.code === 'continuation_already_resumed' && runs() === 1,
    () => `a real turn with turnId __proto__: expected completed then refused; got ${results.map(describeResult).join(', ')}`,
  );
  return { ok: true, detail: `${String(cases.length)} hostile continuations each claimed once; a real turn "__proto__" resumed once` };
}

/** Claim latency (sequential sample) and throughput (`throughputClaims` concurrent claims, all different). */
export async function throughput(context: CheckContext): Promise<CheckOutcome & { figures: ResumeGuardThroughput }> {
  const guard = await context.makeGuard();
  const { throughputClaims: total, throughputConcurrency: concurrency } = context.options;
  const latencies: number[] = [];
  for (let index = 0; index < 200; index += 1) {
    const continuation = syntheticContinuation(context);
    const started = performance.now();
    const claimed = await guard.claim(continuation);
    latencies.push(performance.now() - started);
    expectThat(claimed === true, () => `latency sample: a fresh claim resolved ${describeClaim(claimed)}`);
  }
  const continuations = Array.from({ length: total }, () => syntheticContinuation(context));
  let next = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, total) }, async () => {
      while (next < continuations.length) {
        const continuation = continuations[next++]!;
        if ((await guard.claim(continuation)) !== true) refused += 1;
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  expectThat(refused === 0, () => `${String(refused)} of ${String(total)} fresh claims were not granted`);
  const again = await Promise.all(continuations.slice(0, 100).map((continuation) => guard.claim(continuation)));
  expectThat(
    again.every((value) => value === false),
    () => `after the run, claims of the same continuations must be refused; got ${tally(again.map(describeClaim))}`,
  );
  latencies.sort((a, b) => a - b);
  const figures: ResumeGuardThroughput = {
    claims: total,
    concurrency,
    elapsedMs: round(elapsedMs),
    claimsPerSecond: Math.round((total / elapsedMs) * 1000),
    latencyP50Ms: round(latencies[Math.floor(latencies.length * 0.5)]!),
    latencyP99Ms: round(latencies[Math.floor(latencies.length * 0.99)]!),
  };
  return {
    ok: true,
    figures,
    detail:
      `${String(total)} claims (${String(concurrency)} in flight) in ${String(figures.elapsedMs)} ms = ${String(figures.claimsPerSecond)} claims/s; ` +
      `one claim alone: p50 ${String(figures.latencyP50Ms)} ms, p99 ${String(figures.latencyP99Ms)} ms`,
  };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
