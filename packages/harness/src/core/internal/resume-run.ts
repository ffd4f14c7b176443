import { turnIdentity } from '../../shared/turn-identity.js';
import type { ExecutionAdapter, ExecutionRequest } from '../../execution/types.js';
import { HarnessConfigError } from '../errors/harness-config-error.js';
import { toPlainJson } from '../continuation/to-plain-json.js';
import { resumeResolutionSchema } from '../schemas/continuation-schema.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import type {
  HarnessBackendContinuationState,
  HarnessContinuation,
  HarnessLoopContinuationState,
  HarnessResumeGuard,
  HarnessResumeOptions,
  HarnessResumeResolution,
} from '../types/continuation.js';
import type { HarnessResult } from '../types/result.js';
import type { HarnessStreamEvent } from '../types/runtime.js';
import type { HarnessTraceSink } from '../types/trace.js';
import { claimResume } from './claim-resume.js';
import { resolveOutput, type ResolvedOutput } from '../output/resolve-output.js';
import { createRun, type RunSeed } from './create-run.js';
import { createTurnSignal } from './turn-signal.js';
import { checkSteering } from './turn-steering.js';
import { emptyUsage, type HarnessServices } from './run-context.js';
import { runModelLoop } from './run-model-loop.js';
import type { BackendRunner } from '../backend-runner.js';

/** Everything `resumeTurn` needs from the harness instance. */
export interface ResumeDependencies {
  services: HarnessServices;
  trace: HarnessTraceSink | undefined;
  backend?: ExecutionAdapter;
  /** The runner `backend` carries (set whenever `backend` is). */
  runBackend?: BackendRunner | undefined;
  requirements?: ExecutionRequest['requirements'];
  resumeGuard?: HarnessResumeGuard;
}

type Decisions = Record<string, 'approved' | 'rejected'>;

/** The options a resumed run starts with: the caller's, with the `output` schema checked. */
type ResumeRunOptions = Omit<HarnessResumeOptions, 'output'> & { onStreamEvent?: (event: HarnessStreamEvent) => void; resolvedOutput?: ResolvedOutput | undefined };

/**
 * Verifies a continuation and continues its turn. Whatever `raw` is, the promise resolves: a
 * continuation that cannot be read, verified or claimed gives `failed` / `continuation_invalid`.
 * Only a malformed `resolution` (a caller mistake) rejects, with `HarnessConfigError`.
 */
export async function resumeRun(
  dependencies: ResumeDependencies,
  raw: unknown,
  rawResolution: HarnessResumeResolution,
  options: HarnessResumeOptions & { onStreamEvent?: (event: HarnessStreamEvent) => void },
): Promise<HarnessResult> {
  const resolution = readResolution(rawResolution, dependencies.services.limits.maxContinuationBytes);
  if (options.steering !== undefined) checkSteering(options.steering);
  // Not carried in the continuation (a schema is code): the resume's own, else the harness's.
  const output = options.output === undefined ? dependencies.services.output : resolveOutput(options.output, 'resumeTurn');
  const opened = await dependencies.services.codec.open(raw, options);
  if (!opened.ok) return invalidContinuation(opened, opened.reason);
  const continuation = opened.continuation;
  if (continuation.type !== resolution.type) {
    return invalidContinuation(
      continuation,
      `This ${continuation.type} continuation cannot be resumed with a ${resolution.type} resolution.`,
    );
  }
  const state = continuation.state;
  if (resolution.type === 'approval') checkDecisions(state, resolution.decisions);
  if (state.mode === 'loop' && dependencies.services.model === undefined) {
    return invalidContinuation(continuation, 'The continuation comes from a model-driven turn, but this harness has a backend.');
  }
  if (state.mode === 'backend' && (dependencies.backend === undefined || dependencies.backend.backendId !== state.backendId)) {
    return invalidContinuation(continuation, `The continuation belongs to backend ${state.backendId}, which this harness does not run.`);
  }
  const seed = dependencies.resumeGuard === undefined ? {} : await claimContinuation(dependencies, dependencies.resumeGuard, continuation, options.signal);
  if ('refused' in seed) return seed.refused;
  if (state.mode === 'loop') return resumeLoop(dependencies, continuation, state, resolution, { ...options, resolvedOutput: output }, seed);
  return resumeBackend(dependencies, dependencies.backend!, continuation, state, resolution, { ...options, resolvedOutput: output }, seed);
}

/**
 * Claims the continuation under the turn's own deadline: the run that follows keeps the signal
 * and the start time, so the claim and the resumed run together stay within `maxElapsedMs`.
 * A claim won after the continuation expired (by this harness's clock) is refused too, so a store
 * may forget claims `RESUME_CLAIM_GRACE_MS` after the expiry.
 */
async function claimContinuation(
  dependencies: ResumeDependencies,
  guard: HarnessResumeGuard,
  continuation: HarnessContinuation,
  signal: AbortSignal | undefined,
): Promise<RunSeed | { refused: HarnessResult }> {
  const { clock, limits } = dependencies.services;
  const startedAt = clock.now();
  const turnSignal = createTurnSignal(signal, limits.maxElapsedMs);
  const claim = await claimResume(guard, continuation, turnSignal);
  const elapsedMs = Math.max(0, clock.now() - startedAt);
  if (!claim.ok) {
    turnSignal.dispose();
    return { refused: invalidContinuation(continuation, claim.reason, { code: claim.code, retryable: claim.retryable, elapsedMs }) };
  }
  const expiresAtMs = continuation.expiresAt === undefined ? Number.POSITIVE_INFINITY : Date.parse(continuation.expiresAt);
  if (clock.now() >= expiresAtMs) {
    turnSignal.dispose();
    return {
      refused: invalidContinuation(continuation, `The continuation expired at ${String(continuation.expiresAt)} while it was being claimed.`, {
        code: 'continuation_invalid',
        retryable: false,
        elapsedMs,
      }),
    };
  }
  return { turnSignal, startedAt };
}

/**
 * A plain, bounded copy of the caller's resolution with decisions in a null-prototype record, so
 * a request id such as `__proto__` is only ever an own key.
 */
function readResolution(raw: unknown, maxBytes: number): HarnessResumeResolution {
  const copied = toPlainJson(raw, { maxBytes, maxDepth: 4 });
  if (!copied.ok) {
    throw new HarnessConfigError(`Invalid resume resolution: ${copied.reason}.`, { field: 'resolution' });
  }
  const parsed = resumeResolutionSchema.safeParse(copied.value);
  if (!parsed.success) {
    throw new HarnessConfigError(`Invalid resume resolution: ${formatIssues(parsed.error.issues, 'resolution')}.`, {
      field: 'resolution',
    });
  }
  const resolution = parsed.data as HarnessResumeResolution;
  if (resolution.type !== 'approval') return resolution;
  const source = (copied.value as { decisions: Record<string, unknown> }).decisions;
  const decisions: Decisions = Object.create(null) as Decisions;
  for (const id of Object.keys(source)) {
    const decision = source[id];
    if (decision !== 'approved' && decision !== 'rejected') {
      throw new HarnessConfigError(`Invalid resume resolution: decisions[${JSON.stringify(id)}] must be 'approved' or 'rejected'.`, {
        field: 'resolution.decisions',
      });
    }
    decisions[id] = decision;
  }
  return { type: 'approval', decisions };
}

function resumeLoop(
  dependencies: ResumeDependencies,
  continuation: HarnessContinuation,
  state: HarnessLoopContinuationState,
  resolution: HarnessResumeResolution,
  options: ResumeRunOptions,
  seed: RunSeed,
): Promise<HarnessResult> {
  const input = { ...state.input, turnId: continuation.turnId };
  const run = createRun(dependencies.services, dependencies.trace, input, options, {
    ...seed,
    transcript: state.transcript,
    usage: state.usage,
    iterationOffset: state.iteration,
    reportedUnknownTools: state.reportedUnknownTools,
    toolState: state.toolState,
    resumedFrom: continuation,
  });
  if (options.resolvedOutput !== undefined) run.output = options.resolvedOutput;
  if (resolution.type === 'clarification') {
    // A tool call that asked gets the answer as its result, once; otherwise the answer is the user's reply.
    const answeredCallId = askingCallId(state);
    run.transcript.push({
      type: 'clarification_answer',
      iteration: state.iteration,
      answer: resolution.answer,
      ...(answeredCallId === undefined ? {} : { callId: answeredCallId }),
    });
    return runModelLoop(run, { pendingCalls: state.pendingCalls, resume: { resolution, answeredCallId } });
  }
  if (resolution.type === 'approval') {
    for (const request of state.approvals ?? []) {
      const decision = resolution.decisions[request.id]!;
      run.transcript.push({ type: 'approval_decision', iteration: state.iteration, requestId: request.id, decision });
    }
    return runModelLoop(run, { pendingCalls: state.pendingCalls, decisions: resolution.decisions, resume: { resolution } });
  }
  return runModelLoop(run, { pendingCalls: state.pendingCalls, resume: { resolution } });
}

/** The pending call whose question the paused turn asked, if a tool call asked it. */
function askingCallId(state: HarnessLoopContinuationState): string | undefined {
  for (let index = state.transcript.length - 1; index >= 0; index -= 1) {
    const item = state.transcript[index]!;
    if (item.type !== 'clarification_request') continue;
    const callId = item.callId;
    return callId !== undefined && (state.pendingCalls ?? []).some((call) => call.id === callId) ? callId : undefined;
  }
  return undefined;
}

function resumeBackend(
  dependencies: ResumeDependencies,
  backend: ExecutionAdapter,
  continuation: HarnessContinuation,
  state: HarnessBackendContinuationState,
  resolution: HarnessResumeResolution,
  options: ResumeRunOptions,
  seed: RunSeed,
): Promise<HarnessResult> {
  const request: ExecutionRequest = {
    ...state.request,
    turnId: continuation.turnId,
    resume: resolution,
    ...(state.backendContinuation === undefined ? {} : { continuation: state.backendContinuation }),
  };
  const input = {
    ...turnIdentity({ ...request, turnId: continuation.turnId }),
    message: request.message,
    instructions: request.instructions,
    ...(request.history === undefined ? {} : { history: request.history }),
  };
  const run = createRun(dependencies.services, dependencies.trace, input, options, {
    ...seed,
    usage: state.usage,
    resumedFrom: continuation,
  });
  if (options.resolvedOutput !== undefined) run.output = options.resolvedOutput;
  return dependencies.runBackend!(run, backend, { requirements: dependencies.requirements, start: { request } });
}

function checkDecisions(state: HarnessLoopContinuationState | HarnessBackendContinuationState, decisions: Decisions): void {
  const expected = (state.approvals ?? []).map((request) => request.id);
  const missing = expected.filter((id) => decisions[id] === undefined);
  const unknown = Object.keys(decisions).filter((id) => !expected.includes(id));
  if (missing.length > 0 || unknown.length > 0) {
    const parts = [
      missing.length > 0 ? `missing a decision for ${missing.join(', ')}` : '',
      unknown.length > 0 ? `no pending request ${unknown.join(', ')}` : '',
    ].filter((part) => part !== '');
    throw new HarnessConfigError(`Invalid approval decisions: ${parts.join('; ')}.`, { field: 'resolution.decisions' });
  }
}

/** How a refusal is reported: its `error.code` (default `continuation_invalid`), whether a retry may help, and the time spent. */
interface RefusalDetails {
  code: string;
  retryable: boolean;
  elapsedMs: number;
}

function invalidContinuation(
  source: { turnId?: string; sessionId?: string },
  reason: string,
  details: RefusalDetails = { code: 'continuation_invalid', retryable: false, elapsedMs: 0 },
): HarnessResult {
  const { code, retryable, elapsedMs } = details;
  return {
    outcome: 'failed',
    stopReason: 'continuation_invalid',
    turnId: source.turnId ?? 'unknown',
    ...(source.sessionId === undefined ? {} : { sessionId: source.sessionId }),
    traceSummary: {
      iterationCount: 0,
      toolCallCount: 0,
      hadContinuation: true,
      finalEventType: 'none',
      traceSinkErrors: 0,
      elapsedMs,
    },
    usage: emptyUsage(),
    transcript: [],
    error: { code, message: reason, retryable, source: 'continuation' },
    metadata: { error: { code, message: reason, source: 'continuation', retryable } },
  };
}
