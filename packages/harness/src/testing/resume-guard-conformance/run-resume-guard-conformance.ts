import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { describeError } from '../../shared/describe-error.js';
import { boundedOption } from '../../shared/bounded-option.js';
import { CheckFailure, type CheckContext, type CheckOutcome, type ResolvedConformanceOptions } from './check-context.js';
import { claimOnce, concurrentClaims, expiredClaims, hostileIds, resumeOnce, throughput } from './claim-checks.js';
import { pauseConformanceTurn, randomToken } from './conformance-scenario.js';
import type {
  MakeResumeGuard,
  ResumeGuardConformanceCheck,
  ResumeGuardConformanceOptions,
  ResumeGuardConformanceReport,
  ResumeGuardConformanceSkip,
  ResumeGuardThroughput,
} from './conformance-types.js';
import { killedClaimer, processRace } from './process-checks.js';
import { storeDown, storeRestart } from './store-checks.js';

/**
 * Proves a resume guard keeps the exactly-once promise over a real store, in any test runner:
 * call it, then assert `report.ok` (print `report.checks` when it is not). `makeGuard` returns a
 * fresh guard over the store under test each call — a new client over the same store, say; for a
 * guard that is its own store (`createMemoryResumeGuard`), return the same guard every time.
 *
 * Checks, in order: `claim-once`, `concurrent-claims` and `resume-once` (`claimers` at once, in
 * this process), `expired-claims`, `hostile-ids` (`__proto__`, 10 KB, unicode, …), `throughput`
 * (`throughputClaims` claims; figures in `report.throughput`), `process-race` (`claimers`
 * processes race for one continuation: exactly one runs the tool), `killed-claimer` (a claimer
 * killed mid-tool: nobody runs it again; recovery is the expiry), `store-down` (a resume ends
 * `failed` / `continuation_invalid` within the turn's `maxElapsedMs`, and the guard works again
 * once the store is back) and `store-restart`. The process checks need `options.processes`
 * (`createNodeResumeGuardClaimers` from `@agent-assistant/harness/testing/node`), the store checks
 * `options.store`; either can be `{ skip: reason }`, which shows in `checks`. Never rejects for a
 * failing guard: a check that throws or runs past `checkTimeoutMs` fails with the reason.
 *
 * Runs anywhere `createHarness` runs (Node.js, Workers); only the `processes` you pass decide
 * how claimers are spawned.
 *
 * @throws HarnessConfigError when `makeGuard` is not a function or an option is out of range.
 * @example
 * ```ts
 * const report = await runResumeGuardConformance(() => createRedisResumeGuard({ client }), {
 *   processes: createNodeResumeGuardClaimers({ module: new URL('./make-guard.mjs', import.meta.url), exportName: 'makeGuard', args: { url } }),
 *   store: { stop: () => redis.stop(), start: () => redis.start(), losesClaimsOnRestart: true },
 * });
 * if (!report.ok) throw new Error(JSON.stringify(report.checks, null, 2));
 * ```
 */
export async function runResumeGuardConformance(
  makeGuard: MakeResumeGuard,
  options: ResumeGuardConformanceOptions = {},
): Promise<ResumeGuardConformanceReport> {
  if (typeof makeGuard !== 'function') {
    throw new HarnessConfigError('runResumeGuardConformance needs makeGuard, a function returning a fresh resume guard.', { field: 'makeGuard' });
  }
  const resolved = resolveOptions(options);
  const secret = `${randomToken()}${randomToken()}`;
  const base = { makeGuard, secret, options: resolved, raw: options, template: await pauseConformanceTurn(secret) };
  const checks: ResumeGuardConformanceCheck[] = [];
  let figures: ResumeGuardThroughput | undefined;
  const record = (check: ResumeGuardConformanceCheck) => {
    checks.push(check);
    options.onCheck?.(check);
  };
  const run = async (name: string, body: (context: CheckContext) => Promise<CheckOutcome>) => {
    record({ name, ...(await runCheck(body, base, resolved.checkTimeoutMs)) });
  };

  await run('claim-once', claimOnce);
  await run('concurrent-claims', concurrentClaims);
  await run('resume-once', resumeOnce);
  await run('expired-claims', expiredClaims);
  await run('hostile-ids', hostileIds);
  if (resolved.throughputClaims === 0) record(skipped('throughput', 'throughputClaims is 0'));
  else
    await run('throughput', async (context) => {
      const outcome = await throughput(context);
      figures = outcome.figures;
      return outcome;
    });

  const processes = options.processes;
  for (const [name, check] of [
    ['process-race', processRace],
    ['killed-claimer', killedClaimer],
  ] as const) {
    if (processes === undefined) record(unconfigured(name, 'processes', 'give createNodeResumeGuardClaimers(...) from @agent-assistant/harness/testing/node'));
    else if (isSkip(processes)) record(skipped(name, processes.skip));
    else await run(name, (context) => check(processes, context));
  }

  const store = options.store;
  for (const [name, check] of [
    ['store-down', storeDown],
    ['store-restart', storeRestart],
  ] as const) {
    if (store === undefined) record(unconfigured(name, 'store', 'give { stop, start } that stop and start the store under test'));
    else if (isSkip(store)) record(skipped(name, store.skip));
    else await run(name, (context) => check(store, context));
  }

  return { ok: checks.every((check) => check.ok), checks, ...(figures === undefined ? {} : { throughput: figures }) };
}

/** Runs one check; a failure, a throw or running out of time becomes `ok: false` with the reason. */
async function runCheck(
  body: (context: CheckContext) => Promise<CheckOutcome>,
  base: Omit<CheckContext, 'signal'>,
  timeoutMs: number,
): Promise<CheckOutcome> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<CheckOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ ok: false, detail: `did not finish within ${String(timeoutMs)} ms (checkTimeoutMs): a hang` });
    }, timeoutMs);
  });
  try {
    const outcome = await Promise.race([body({ ...base, signal: controller.signal }), timedOut]);
    return outcome.detail === undefined ? { ok: outcome.ok } : { ok: outcome.ok, detail: outcome.detail };
  } catch (error) {
    return { ok: false, detail: error instanceof CheckFailure ? error.message : `threw: ${describeError(error)}` };
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

function isSkip(value: object): value is ResumeGuardConformanceSkip {
  return typeof (value as { skip?: unknown }).skip === 'string';
}

function skipped(name: string, reason: string): ResumeGuardConformanceCheck {
  return { name, ok: true, skipped: true, detail: `skipped: ${reason}` };
}

function unconfigured(name: string, option: string, how: string): ResumeGuardConformanceCheck {
  return { name, ok: false, detail: `not run: options.${option} is missing (${how}, or { skip: 'reason' } to skip it on purpose)` };
}

function resolveOptions(options: ResumeGuardConformanceOptions): ResolvedConformanceOptions {
  if (typeof options !== 'object' || options === null) {
    throw new HarnessConfigError('runResumeGuardConformance options must be an object.', { field: 'options' });
  }
  for (const field of ['processes', 'store'] as const) {
    const value = options[field];
    if (value !== undefined && (typeof value !== 'object' || value === null)) {
      throw new HarnessConfigError(`options.${field} must be an object or { skip: reason }.`, { field: `options.${field}` });
    }
  }
  return {
    claimers: boundedOption(options.claimers, 16, 256, 'options.claimers', 2),
    throughputClaims: boundedOption(options.throughputClaims, 10_000, 10_000_000, 'options.throughputClaims', 0),
    throughputConcurrency: boundedOption(options.throughputConcurrency, 64, 10_000, 'options.throughputConcurrency'),
    storeDownMaxElapsedMs: boundedOption(options.storeDownMaxElapsedMs, 2_000, 600_000, 'options.storeDownMaxElapsedMs'),
    recoveryMs: boundedOption(options.recoveryMs, 20_000, 3_600_000, 'options.recoveryMs'),
    checkTimeoutMs: boundedOption(options.checkTimeoutMs, 120_000, 3_600_000, 'options.checkTimeoutMs'),
  };
}
