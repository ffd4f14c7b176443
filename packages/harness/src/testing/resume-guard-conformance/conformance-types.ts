import type { HarnessContinuation, HarnessResumeGuard } from '../../core/types/continuation.js';

/** Makes a fresh guard over the store under test (every call: a new guard, the same store). */
export type MakeResumeGuard = () => HarnessResumeGuard | Promise<HarnessResumeGuard>;

/** One check of the conformance suite. */
export interface ResumeGuardConformanceCheck {
  name: string;
  /** Passed, or skipped on purpose (then `skipped` is `true` and `detail` gives the reason). */
  ok: boolean;
  /** Present when the check did not run because the options said to skip it. */
  skipped?: true;
  /** What was seen: figures, the reason for a failure or a skip. */
  detail?: string;
}

/** The claim figures of the `throughput` check. */
export interface ResumeGuardThroughput {
  /** Claims made concurrently, each for a different continuation. */
  claims: number;
  /** How many claims were in flight at once. */
  concurrency: number;
  elapsedMs: number;
  claimsPerSecond: number;
  /** Latency of one claim made alone (sequential sample), in milliseconds. */
  latencyP50Ms: number;
  latencyP99Ms: number;
}

/** What `runResumeGuardConformance` found. `ok` is true when every check passed or was skipped on purpose. */
export interface ResumeGuardConformanceReport {
  ok: boolean;
  checks: ResumeGuardConformanceCheck[];
  /** Present when the throughput check ran. */
  throughput?: ResumeGuardThroughput;
}

/** Something the options asked the suite not to do, and why (the reason shows in `checks`). */
export interface ResumeGuardConformanceSkip {
  skip: string;
}

/** Stops and starts the store under test, for the store-down checks. */
export interface ResumeGuardStoreControl {
  /** Makes the store unreachable (stop the server, drop the network); resolves once it is. */
  stop(): Promise<void>;
  /** Brings it back (on the same address); resolves once it accepts connections. */
  start(): Promise<void>;
  /**
   * The store forgets its data when it restarts (Redis without persistence): a claim made before
   * the restart is then gone. With `true` the `store-restart` check reports that instead of failing.
   */
  losesClaimsOnRestart?: boolean | undefined;
}

/** What one claimer process is asked to do: resume `continuation` under a guard it builds itself. */
export interface ResumeGuardClaimerJob {
  continuation: HarnessContinuation;
  /** The harness's `continuationSecret`; send it over a pipe, never in argv or the environment of a shared host. */
  continuationSecret: string;
  /** The tool never finishes (the suite kills this claimer once the tool started). */
  holdTool: boolean;
  maxElapsedMs: number;
}

/** What a claimer reports once its resume ended. */
export interface ResumeGuardClaimerResult {
  outcome: string;
  stopReason: string;
  /** `result.error.code`, when the resume failed. */
  code?: string;
  message?: string;
  /** How many times the tool started in this claimer (0 or 1). */
  toolRuns: number;
}

/** One running claimer. */
export interface ResumeGuardClaimer {
  /** Resolves once the claimer built its guard and waits for `go()`; rejects if it died first. */
  readonly ready: Promise<void>;
  /** Starts the resume. */
  go(): void;
  /** Resolves when the tool started in this claimer (never, if it did not). */
  readonly toolStarted: Promise<void>;
  /** Resolves with the claimer's result; rejects if it died or broke before reporting one. */
  readonly result: Promise<ResumeGuardClaimerResult>;
  /** Ends the claimer at once (SIGKILL for a process) and resolves when it is gone. */
  kill(): Promise<void>;
}

/**
 * Starts claimers in separate processes. `createNodeResumeGuardClaimers` from
 * `@agent-assistant/harness/testing/node` makes them with Node.js child processes; another
 * runtime can implement this and run `runResumeGuardClaimer` in its child.
 */
export interface ResumeGuardClaimers {
  start(job: ResumeGuardClaimerJob): ResumeGuardClaimer;
}

/** Options of `runResumeGuardConformance`. */
export interface ResumeGuardConformanceOptions {
  /**
   * How to start claimers in separate processes (the `process-race` and `killed-claimer` checks),
   * or `{ skip: reason }` for a guard that cannot span processes (a memory guard). Left out, those
   * checks fail and say how to configure them: they are never skipped silently.
   */
  processes?: ResumeGuardClaimers | ResumeGuardConformanceSkip | undefined;
  /** How to stop and start the store (the `store-down` and `store-restart` checks), or `{ skip: reason }`. */
  store?: ResumeGuardStoreControl | ResumeGuardConformanceSkip | undefined;
  /** Claimers racing for one continuation, in processes and in-process. @default 16 */
  claimers?: number | undefined;
  /** Claims of the throughput check. @default 10000 */
  throughputClaims?: number | undefined;
  /** Claims in flight at once in the throughput check. @default 64 */
  throughputConcurrency?: number | undefined;
  /** The turn's `maxElapsedMs` while the store is down: the resume must end within it. @default 2000 */
  storeDownMaxElapsedMs?: number | undefined;
  /** How long the guard may take to work again once the store is back. @default 20000 */
  recoveryMs?: number | undefined;
  /** The longest any one check may take before it is failed (and its processes killed). @default 120000 */
  checkTimeoutMs?: number | undefined;
  /** Called after each check, for progress output. */
  onCheck?: ((check: ResumeGuardConformanceCheck) => void) | undefined;
}
