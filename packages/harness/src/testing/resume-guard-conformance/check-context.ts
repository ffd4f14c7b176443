import type { HarnessContinuation } from '../../core/types/continuation.js';
import type { HarnessResult } from '../../core/types/result.js';
import type { MakeResumeGuard, ResumeGuardConformanceOptions } from './conformance-types.js';
import { randomToken } from './conformance-scenario.js';

/** The options with every default applied. */
export interface ResolvedConformanceOptions {
  claimers: number;
  throughputClaims: number;
  throughputConcurrency: number;
  storeDownMaxElapsedMs: number;
  recoveryMs: number;
  checkTimeoutMs: number;
}

/** What every check gets. */
export interface CheckContext {
  makeGuard: MakeResumeGuard;
  /** A random `continuationSecret` for this run of the suite. */
  secret: string;
  options: ResolvedConformanceOptions;
  raw: ResumeGuardConformanceOptions;
  /** A real sealed continuation, the template of the synthetic ones claims are made for. */
  template: HarnessContinuation;
  /** Fires when the check ran out of time: stop what it started. */
  signal: AbortSignal;
}

/** How a check ended. */
export interface CheckOutcome {
  ok: boolean;
  detail?: string;
}

/** A check that failed, with what was seen. */
export class CheckFailure extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'CheckFailure';
  }
}

/** Throws `CheckFailure(detail)` unless `condition`. */
export function expectThat(condition: boolean, detail: () => string): asserts condition {
  if (!condition) throw new CheckFailure(detail());
}

/** A continuation object for claims only (not signed for these fields): `overrides` on the template, with a fresh token. */
export function syntheticContinuation(context: CheckContext, overrides: Partial<HarnessContinuation> = {}): HarnessContinuation {
  return { ...context.template, id: `claim-${randomToken()}`, turnId: `turn-${randomToken()}`, resumeToken: randomToken(), ...overrides };
}

/** The claim a guard resolved, described for a detail. */
export function describeClaim(value: unknown): string {
  return value === true || value === false ? String(value) : `a non-boolean (${value === null ? 'null' : typeof value})`;
}

/** A result, in a few words: outcome, stop reason and code. */
export function describeResult(result: Pick<HarnessResult, 'outcome' | 'stopReason'> & { error?: { code: string } | undefined }): string {
  return `${result.outcome}/${result.stopReason}${result.error === undefined ? '' : ` (${result.error.code})`}`;
}

/** Counts each value of a list: `a ×3, b ×1`. */
export function tally(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].map(([value, count]) => `${value} ×${String(count)}`).join(', ');
}

/** Resolves after `ms`: lets wall-clock time pass (a claim's expiry, a store's backoff), never to wait for an event. */
export function elapse(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
