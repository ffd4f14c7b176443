import { describeError } from '../../shared/describe-error.js';
import { createBackendStream, type BackendStream } from './backend-stream.js';
import { readStructuredAnswer } from '../output/read-structured-answer.js';
import { outputFormat, type ResolvedOutput } from '../output/resolve-output.js';
import { checkInputLimits } from './check-input-limits.js';
import { detachValue } from '../continuation/detach-value.js';
import { finishRun, type RunEnding } from './finish-run.js';
import { interruptStopReason } from './run-model-loop.js';
import { addUsage, callerIdentity, type RunContext } from './run-context.js';
import { isTurnInterrupted, raceSignal } from './turn-signal.js';
import { executionResultSchema, negotiationSchema } from '../../execution/execution-result-schema.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import type { HarnessBackendContinuationState } from '../types/continuation.js';
import type { HarnessApprovalRequest } from '../types/approval.js';
import type { HarnessModelOutput } from '../types/model.js';
import type { HarnessStopReason } from '../types/outcome.js';
import type { HarnessResultMetadata } from '../types/result.js';
import { toExecutionRequest } from '../to-execution-request.js';
import type { BackendRunner, BackendRunStart } from '../backend-runner.js';
import type {
  ExecutionAdapter,
  ExecutionContinuation,
  ExecutionNegotiationReason,
  ExecutionRequest,
  ExecutionResult,
  ExecutionSteering,
} from '../../execution/types.js';

/**
 * Runs one backend turn under the harness's limits and maps its result onto an outcome. Reached only
 * through an adapter made by `defineExecutionAdapter` (see `backend-runner.ts`).
 */
export const runBackendTurn: BackendRunner = async (run, backend, options) => {
  try {
    return await finishRun(run, await drive(run, backend, options));
  } catch (error) {
    if (isTurnInterrupted(error)) return finishRun(run, { stopReason: interruptStopReason(error.reason) });
    return finishRun(run, {
      stopReason: 'runtime_error',
      metadata: { backendId: backend.backendId, error: { code: 'runtime_error', message: describeError(error), source: run.phase } },
    });
  } finally {
    run.turnSignal.dispose();
  }
};

async function drive(
  run: RunContext,
  backend: ExecutionAdapter,
  options: { requirements?: ExecutionRequest['requirements']; start?: BackendRunStart },
): Promise<RunEnding> {
  run.trace.emit({ type: 'turn_started', ...(run.resumedFrom === undefined ? {} : { resumedFrom: run.resumedFrom.id }) });
  run.trace.stream({ type: 'turn_started', turnId: run.input.turnId });
  const overLimit = checkInputLimits(run.input, run.services.limits);
  if (overLimit !== undefined) return overLimit;
  const request = options.start?.request ?? (await freshRequest(run, options.requirements));
  const base = { backendId: backend.backendId };
  const pausedState = (stopReason: HarnessStopReason, extra: Partial<HarnessBackendContinuationState> = {}) => {
    const { resume: _resume, ...resumable } = request;
    return { mode: 'backend', stopReason, backendId: backend.backendId, request: resumable, usage: { ...run.usage }, ...extra } as HarnessBackendContinuationState;
  };

  run.phase = 'backend.negotiate';
  const negotiation = negotiationSchema.safeParse(backend.negotiate(request));
  if (!negotiation.success) throw new Error(`negotiate returned an unusable value: ${formatIssues(negotiation.error.issues)}.`);
  const reasons = negotiation.data.reasons as ExecutionNegotiationReason[];
  if (!negotiation.data.supported) {
    const blocking = reasons.filter((reason) => reason.severity === 'blocking');
    return {
      stopReason: 'backend_unsupported',
      metadata: {
        ...base,
        negotiation: reasons,
        error: { code: 'backend_unsupported', message: blocking.map((reason) => reason.message).join(' ') },
      },
    };
  }
  const degradation = reasons.filter((reason) => reason.severity !== 'blocking');
  const withDegradation = degradation.length === 0 ? base : { ...base, degradation };

  run.counters.iteration = 1;
  run.trace.emit({ type: 'model_step_started' });
  run.trace.stream({ type: 'step_started', iteration: 1 });
  run.phase = 'backend.execute';
  const startedAt = run.services.clock.now();
  let raw: unknown;
  let reported = request.continuation;
  const onContinuation = (continuation: ExecutionContinuation) => {
    reported = continuation;
  };
  const live = createBackendStream(run, 1);
  const steer = steeringFor(run, backend);
  try {
    raw = await raceSignal(
      () =>
        backend.execute(request, {
          signal: run.turnSignal.signal,
          onContinuation,
          ...(live.onEvent === undefined ? {} : { onEvent: live.onEvent }),
          ...(steer === undefined ? {} : { steer }),
        }),
      run.turnSignal.signal,
    );
  } catch (error) {
    if (!isTurnInterrupted(error)) throw error;
    live.close();
    const stopReason = interruptStopReason(error.reason);
    return {
      stopReason,
      metadata: { ...withDegradation, ...live.report() },
      continuationState: pausedState(stopReason, { backendContinuation: reported }),
    };
  } finally {
    run.steering?.close('turn_finished', 'The backend finished its turn before this input was delivered.');
  }
  live.close();
  const latencyMs = run.services.clock.now() - startedAt;
  run.usage.modelCalls += 1;
  // Copied to bounded plain JSON first: a backend's value nested 400,000 levels deep or holding a
  // throwing getter must fail here, not when the caller serialises the result.
  const detached = detachValue(raw);
  const parsed = detached.ok ? executionResultSchema.safeParse(detached.value) : undefined;
  if (parsed === undefined || !parsed.success) {
    const problem = parsed === undefined ? (detached.ok ? '' : detached.reason) : formatIssues(parsed.error.issues);
    addUsage(run.usage, undefined, latencyMs);
    run.trace.emit({ type: 'model_step_finished', outputType: 'invalid', latencyMs, invalidKind: 'schema_mismatch' });
    return {
      stopReason: 'model_invalid_response',
      metadata: {
        ...withDegradation,
        error: {
          code: 'invalid_backend_output',
          message: `The backend returned an unusable result: ${problem}.`,
        },
      },
    };
  }
  const result = parsed.data as ExecutionResult;
  addUsage(run.usage, result.usage, latencyMs);
  run.trace.emit({
    type: 'model_step_finished',
    outputType: outputTypeFor(result),
    latencyMs,
    ...(result.usage === undefined ? {} : { usage: result.usage }),
  });
  run.trace.stream({ type: 'step_finished', iteration: 1, outputType: outputTypeFor(result) });
  const metadata = {
    ...withDegradation,
    ...live.report(),
    ...(result.metadata === undefined ? {} : { backendMetadata: result.metadata }),
    ...(result.output?.structured === undefined ? {} : { structuredOutput: result.output.structured }),
  };
  const text = result.output?.text;
  const continuation = result.continuation ?? request.continuation;
  switch (result.status) {
    case 'completed': {
      if ((text === undefined || text === '') && result.output?.structured === undefined) {
        return {
          stopReason: 'model_invalid_response',
          metadata: { ...metadata, error: { code: 'empty_response', message: 'The backend completed without any output.' } },
        };
      }
      if (run.output !== undefined) return structuredEnding(run, run.output, { text: text ?? '', value: result.output?.structured }, metadata, live);
      run.transcript.push({ type: 'assistant_step', iteration: 1, outputType: 'final_answer', text: text ?? '' });
      live.finishText(text ?? '');
      return { stopReason: 'answer_finalized', assistantText: text ?? '', metadata: { ...metadata, ...live.report() } };
    }
    case 'needs_clarification': {
      const question = text ?? result.approvalRequest?.reason ?? 'The assistant needs more information to continue.';
      run.transcript.push({ type: 'clarification_request', iteration: 1, question });
      run.trace.emit({ type: 'clarification_requested', question });
      return {
        stopReason: 'clarification_required',
        assistantText: question,
        metadata,
        continuationState: pausedState('clarification_required', { backendContinuation: continuation, question }),
      };
    }
    case 'awaiting_approval': {
      const request_: HarnessApprovalRequest = {
        id: result.approvalRequest?.approvalKey ?? run.services.generateId(),
        kind: 'backend_approval',
        summary: result.approvalRequest?.reason ?? text ?? 'The assistant needs approval to continue.',
        ...(result.approvalRequest?.metadata === undefined ? {} : { metadata: result.approvalRequest.metadata }),
      };
      run.transcript.push({ type: 'approval_request', iteration: 1, request: request_ });
      run.trace.emit({ type: 'approval_requested', requests: [request_] });
      return {
        stopReason: 'approval_required',
        metadata: { ...metadata, approvalRequests: [request_] },
        continuationState: pausedState('approval_required', { backendContinuation: continuation, approvals: [request_] }),
      };
    }
    case 'deferred': {
      const stopReason = deferredStopReason(result);
      return {
        stopReason,
        metadata: result.error === undefined ? metadata : { ...metadata, error: result.error },
        continuationState: pausedState(stopReason, { backendContinuation: continuation }),
      };
    }
    case 'unsupported':
    case 'failed': {
      const stopReason = failedStopReason(result);
      const error = result.error ?? { code: 'backend_execution_error', message: 'The backend failed without details.' };
      if (stopReason === 'timeout_reached' || stopReason === 'budget_reached') {
        return { stopReason, metadata: { ...metadata, error }, continuationState: pausedState(stopReason, { backendContinuation: continuation }) };
      }
      return { stopReason, metadata: { ...metadata, error: { ...error, source: `backend:${backend.backendId}` } } };
    }
  }
}

/**
 * A completed backend answer read against the run's `output` schema (`output.structured` when the
 * backend gave one, else its text as JSON). No retry here: an answer that does not match ends the
 * turn `model_invalid_response` (`schema_mismatch`).
 */
async function structuredEnding(
  run: RunContext,
  output: ResolvedOutput,
  answer: { text: string; value?: unknown },
  metadata: HarnessResultMetadata,
  live: BackendStream,
): Promise<RunEnding> {
  run.phase = 'output.validate';
  const read = await raceSignal(() => readStructuredAnswer(output.schema, answer), run.turnSignal.signal);
  if (!read.ok) {
    live.close();
    const error = { code: 'schema_mismatch', message: read.reason, source: `backend:${String(metadata.backendId)}`, retryable: true };
    return { stopReason: 'model_invalid_response', metadata: { ...metadata, error } };
  }
  run.transcript.push({ type: 'assistant_step', iteration: 1, outputType: 'final_answer', text: read.text });
  live.finishText(read.text);
  return { stopReason: 'answer_finalized', assistantText: read.text, metadata: { ...metadata, ...live.report() }, output: { value: read.value } };
}

async function freshRequest(run: RunContext, requirements: ExecutionRequest['requirements']): Promise<ExecutionRequest> {
  const { tools, limits } = run.services;
  let definitions;
  if (tools !== undefined) {
    run.phase = 'tools.listAvailable';
    const allowedToolNames = run.input.allowedToolNames;
    const listed = await raceSignal(() => tools.listAvailable({ ...callerIdentity(run.input), allowedToolNames }), run.turnSignal.signal);
    const allowed = allowedToolNames === undefined ? undefined : new Set(allowedToolNames);
    definitions = (Array.isArray(listed) ? listed : []).filter((tool) => allowed?.has(tool.name) ?? true);
  }
  const output = run.output === undefined ? {} : { output: outputFormat(run.output) };
  return toExecutionRequest(run.input, { tools: definitions, requirements, timeoutMs: limits.maxElapsedMs, ...output });
}

function outputTypeFor(result: ExecutionResult): HarnessModelOutput['type'] {
  if (result.status === 'completed') return 'final_answer';
  if (result.status === 'needs_clarification') return 'clarification';
  if (result.status === 'awaiting_approval') return 'approval_request';
  return 'invalid';
}

function deferredStopReason(result: ExecutionResult): HarnessStopReason {
  if (result.error?.code === 'timeout') return 'timeout_reached';
  if (result.error?.code === 'budget_exceeded') return 'budget_reached';
  return 'max_iterations_reached';
}

function failedStopReason(result: ExecutionResult): HarnessStopReason {
  if (result.error?.metadata?.refusal === true) return 'model_refused';
  // A backend whose live session is gone (engine restarted, continuation from another process).
  if (result.error?.metadata?.reason === 'continuation_invalid') return 'continuation_invalid';
  if (result.status === 'unsupported' || result.error?.code === 'unsupported_capability') return 'backend_unsupported';
  if (result.error?.code === 'timeout') return 'timeout_reached';
  if (result.error?.code === 'budget_exceeded') return 'budget_reached';
  if (result.error?.code === 'invalid_backend_output') return 'model_invalid_response';
  // A hosted model call that failed (the HTTP providers' adapters name our code in `errorCode`).
  if (typeof result.error?.metadata?.errorCode === 'string') return 'provider_error';
  return 'runtime_error';
}

/** The steering channel for a backend that takes input mid-turn; otherwise the caller's input is refused as unsupported. */
function steeringFor(run: RunContext, backend: ExecutionAdapter): ExecutionSteering | undefined {
  if (run.steering === undefined) return undefined;
  let steers: boolean;
  try {
    steers = backend.describeCapabilities().steer === true;
  } catch {
    steers = false;
  }
  if (steers) return run.steering.channel;
  run.steering.close('steer_unsupported', `Backend ${backend.backendId} does not take input mid-turn; send it as the next turn.`);
  return undefined;
}
