import { createHarness } from '../../core/create-harness.js';
import type { HarnessClock } from '../../core/types/config.js';
import type { HarnessContinuation, HarnessResumeGuard } from '../../core/types/continuation.js';
import type { HarnessResult } from '../../core/types/result.js';
import { describeError } from '../../shared/describe-error.js';
import { createTurnInput } from '../create-turn-input.js';
import { createFakeToolRegistry } from '../fake-tool-registry.js';
import { createScriptedModel } from '../scripted-model.js';
import type { ResumeGuardClaimerJob, ResumeGuardClaimerResult } from './conformance-types.js';

/** The approval every conformance resume gives: the one pending call runs. */
export const CONFORMANCE_APPROVAL = { type: 'approval', decisions: { 'effect-1': 'approved' } } as const;

/** A harness over `guard` whose one tool, `record_effect`, stands for a side effect that must happen once. */
export interface ConformanceHarnessOptions {
  guard: HarnessResumeGuard;
  secret: string;
  clock?: HarnessClock | undefined;
  maxElapsedMs?: number | undefined;
  /** Called when the tool starts, before it finishes. */
  onToolStart?: (() => void) | undefined;
  /** The tool never finishes (the claimer is killed while it runs). */
  holdTool?: boolean | undefined;
}

/** The tool that runs at most once per continuation; `runs()` counts its starts. */
function effectTools(onToolStart: (() => void) | undefined, holdTool: boolean) {
  return createFakeToolRegistry({
    record_effect: {
      requiresApproval: true,
      execute: async () => {
        onToolStart?.();
        if (holdTool) await new Promise<never>(() => undefined);
        return 'effect recorded';
      },
    },
  });
}

/** A harness that resumes conformance continuations under `guard`. */
export function conformanceHarness(options: ConformanceHarnessOptions) {
  const tools = effectTools(options.onToolStart, options.holdTool === true);
  const harness = createHarness({
    model: createScriptedModel(() => ({ type: 'final_answer', text: 'Effect recorded.' })),
    tools,
    continuationSecret: options.secret,
    resumeGuard: options.guard,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.maxElapsedMs === undefined ? {} : { limits: { maxElapsedMs: options.maxElapsedMs } }),
  });
  return { harness, runs: () => tools.calls.length };
}

/** Pauses a fresh turn on the approval of `record_effect` and returns its continuation as plain JSON. */
export async function pauseConformanceTurn(
  secret: string,
  options: { turnId?: string; ttlMs?: number | undefined; clock?: HarnessClock | undefined } = {},
): Promise<HarnessContinuation> {
  const harness = createHarness({
    model: createScriptedModel([{ type: 'tool_request', calls: [{ id: 'effect-1', name: 'record_effect', input: {} }] }]),
    tools: effectTools(undefined, false),
    continuationSecret: secret,
    ...(options.ttlMs === undefined ? {} : { continuationTtlMs: options.ttlMs }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const paused = await harness.runTurn(createTurnInput({ turnId: options.turnId ?? `conformance-${randomToken()}` }));
  if (paused.continuation === undefined) throw new Error(`the conformance turn did not pause (${paused.stopReason})`);
  return JSON.parse(JSON.stringify(paused.continuation)) as HarnessContinuation;
}

/** What a resume came to, as a claimer reports it. */
export function claimerResult(result: HarnessResult, toolRuns: number): ResumeGuardClaimerResult {
  return {
    outcome: result.outcome,
    stopReason: result.stopReason,
    ...(result.error === undefined ? {} : { code: result.error.code, message: result.error.message }),
    toolRuns,
  };
}

/**
 * The body of one claimer process: resumes `job.continuation` under `guard` (built in that
 * process) and reports what happened. `events.toolStarted` fires when the tool starts. Custom
 * `ResumeGuardClaimers` (a runtime other than Node.js) call this in their child.
 */
export async function runResumeGuardClaimer(
  job: ResumeGuardClaimerJob,
  guard: HarnessResumeGuard,
  events: { toolStarted?: () => void } = {},
): Promise<ResumeGuardClaimerResult> {
  const { harness, runs } = conformanceHarness({
    guard,
    secret: job.continuationSecret,
    maxElapsedMs: job.maxElapsedMs,
    holdTool: job.holdTool,
    onToolStart: events.toolStarted,
  });
  try {
    return claimerResult(await harness.resumeTurn(job.continuation, CONFORMANCE_APPROVAL), runs());
  } catch (error) {
    return { outcome: 'rejected', stopReason: 'rejected', message: describeError(error), toolRuns: runs() };
  }
}

/** 128 random bits, base64url. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
