import type { ExecutionError, ExecutionNegotiation, ExecutionResult, ExecutionTrace } from '../../../execution/types.js';
import type { HarnessUsage } from '../../../shared/types/usage.js';
import { classifyProviderError } from '../../http/provider-error-class.js';
import type { Redactor } from '../../../shared/redact-secrets.js';
import { mapOpenAICompatibleFinishReason } from '../../openai-compatible/map-openai-compatible-finish-reason.js';
import { readOpenAICompatibleUsage, type AssembledChatMessage } from '../../openai-compatible/map-chat-message-to-output.js';

/** The backend id of the OpenRouter execution adapter. */
export const OPENROUTER_BACKEND_ID = 'openrouter-api';

/** What one execution is stamped with. */
export interface ExecutionContext {
  negotiation: ExecutionNegotiation;
  startedAt: number;
  model: string;
  attempts: number;
  redactor: Redactor;
}

/** The result for a request that negotiation refused; nothing was sent. */
export function unsupportedResult(negotiation: ExecutionNegotiation): ExecutionResult {
  const blocking = negotiation.reasons.filter((reason) => reason.severity === 'blocking');
  return {
    backendId: OPENROUTER_BACKEND_ID,
    status: 'unsupported',
    error: { code: 'unsupported_capability', message: blocking.map((reason) => reason.message).join(' '), retryable: false },
    degradation: negotiation.reasons,
    trace: { summary: { stepCount: 0, toolCallCount: 0, degraded: false } },
  };
}

/** A failed result with trace and degradation. */
export function failedResult(context: ExecutionContext, error: ExecutionError, extra: { usage?: HarnessUsage; metadata?: Record<string, unknown> } = {}): ExecutionResult {
  return {
    backendId: OPENROUTER_BACKEND_ID,
    status: 'failed',
    error: { ...error, message: context.redactor.text(error.message) },
    usage: usageOf(context, extra.usage),
    trace: trace(context, { type: 'failure', data: { code: error.code, ...(error.retryable === undefined ? {} : { retryable: error.retryable }) } }),
    metadata: { model: context.model, attempts: context.attempts, ...extra.metadata },
    ...degradation(context),
  };
}

/** Maps a parsed chat-completions message to a completed or failed result. */
export function messageResult(context: ExecutionContext, message: AssembledChatMessage): ExecutionResult {
  const finishReason = mapOpenAICompatibleFinishReason(message.finishReason);
  const usage = readOpenAICompatibleUsage(message.usage);
  const metadata = {
    finishReason,
    ...(message.responseId === undefined ? {} : { responseId: context.redactor.exact(message.responseId) }),
    ...(message.responseModel === undefined ? {} : { responseModel: context.redactor.exact(message.responseModel) }),
  };
  if (message.error !== undefined) {
    const { status, providerCode } = message.error;
    const verdict = classifyProviderError({ status, names: message.error.names, message: message.error.message });
    return failedResult(
      context,
      {
        code: 'backend_execution_error',
        message: `OpenRouter reported an error${providerCode === undefined ? '' : ` (${providerCode})`}: ${message.error.message ?? 'no details'}`,
        retryable: verdict.retryable,
        metadata: {
          errorCode: verdict.code,
          ...(status === undefined ? {} : { httpStatus: status }),
          ...(providerCode === undefined ? {} : { providerCode: context.redactor.text(providerCode).slice(0, 200) }),
        },
      },
      { usage, metadata },
    );
  }
  const text = context.redactor.exact(message.text).trim();
  const refusalText = context.redactor.exact(message.refusal ?? '').trim();
  const refusal =
    refusalText !== '' ? refusalText : finishReason === 'content_filter' ? text || 'The content filter stopped the answer.' : '';
  if (refusal !== '') {
    return failedResult(
      context,
      { code: 'backend_execution_error', message: `The model refused: ${refusal}`, retryable: false, metadata: { refusal: true } },
      { usage, metadata },
    );
  }
  if (text === '') {
    return failedResult(
      context,
      {
        code: 'invalid_backend_output',
        message: message.hasMessage ? 'The model returned no text.' : 'The response held no assistant message.',
        retryable: finishReason !== 'length',
      },
      { usage, metadata },
    );
  }
  return {
    backendId: OPENROUTER_BACKEND_ID,
    status: 'completed',
    output: { text },
    usage: usageOf(context, usage),
    trace: trace(context, { type: 'model_completed', data: { finishReason } }),
    metadata: { model: context.model, attempts: context.attempts, ...metadata },
    ...degradation(context),
  };
}

function usageOf(context: ExecutionContext, reported: HarnessUsage = {}): HarnessUsage {
  return { ...reported, latencyMs: Math.max(0, Date.now() - context.startedAt) };
}

function trace(context: ExecutionContext, last: NonNullable<ExecutionTrace['events']>[number]): ExecutionTrace {
  const completedAt = new Date().toISOString();
  const startedAt = new Date(context.startedAt).toISOString();
  return {
    summary: { startedAt, completedAt, stepCount: 1, toolCallCount: 0, degraded: context.negotiation.degraded },
    events: [
      { type: 'model_started', at: startedAt, data: { model: context.model } },
      { ...last, at: completedAt },
    ],
  };
}

function degradation(context: ExecutionContext): Pick<ExecutionResult, 'degradation'> {
  return context.negotiation.degraded ? { degradation: context.negotiation.reasons.filter((reason) => reason.severity !== 'blocking') } : {};
}
