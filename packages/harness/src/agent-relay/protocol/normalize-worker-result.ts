import type { ExecutionContinuation, ExecutionError, ExecutionErrorCode, ExecutionResult } from '../../execution/types.js';
import { detachValue } from '../../core/continuation/detach-value.js';
import { commonSchemas } from '../../shared/schemas/common-schemas.js';
import type { JsonObject } from './parse-body.js';
import { relayWireSchemas } from './wire-schemas.js';
import { isRecord } from '../../shared/is-record.js';

/** The backend id of a result rebuilt from shorthand that names no backend. */
export const SHORTHAND_WORKER_BACKEND_ID = 'agent-relay-worker';

const COMPLETED = new Set(['ok', 'success', 'succeeded', 'done', 'complete', 'completed']);
const FAILED = new Set(['error', 'errored', 'fail', 'failed', 'failure']);
const TIMED_OUT = new Set(['timeout', 'timed_out', 'timedout']);
const PASSED_THROUGH = new Set(['needs_clarification', 'awaiting_approval', 'deferred', 'unsupported']);
const ERROR_CODES = new Set<ExecutionErrorCode>([
  'unsupported_capability',
  'invalid_request',
  'backend_execution_error',
  'invalid_backend_output',
  'tool_bridge_error',
  'timeout',
  'budget_exceeded',
  'other',
]);
const TEXT_FIELDS = ['text', 'answer', 'output_text', 'outputText', 'result', 'response', 'content'] as const;
const ERROR_TEXT_FIELDS = ['errorMessage', 'error_message', 'message', 'reason', 'detail'] as const;

const own = (object: JsonObject, key: string): unknown => (Object.hasOwn(object, key) ? object[key] : undefined);
const nonBlank = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * Turns a worker's payload into an `ExecutionResult`. The payload is first copied to plain JSON
 * data, bounded like every value the harness keeps from outside (56 levels of nesting, 32 MiB);
 * a payload that does not fit (nested deeper, circular, holding a BigInt, a function or a getter
 * that throws) becomes a `failed` / `invalid_backend_output` result saying why. A canonical result
 * is used as is (unknown fields dropped); anything else is read as shorthand: `status`
 * `ok`/`success`/`done` → `completed`, `error`/`failed` (or an `error` field, or `ok: false`) →
 * `failed`, text from `text`, `answer`, `output_text`, `result`, … or `output.text`. Returns
 * `undefined` when the payload says nothing usable (no status, no text, no error). Never throws.
 */
export function normalizeWorkerResult(raw: Record<string, unknown>): { result: ExecutionResult; shorthand: boolean } | undefined {
  const plain = detachValue(raw);
  if (!plain.ok) {
    const message = `The worker's result cannot be used: ${plain.reason}.`;
    return { result: { backendId: SHORTHAND_WORKER_BACKEND_ID, status: 'failed', error: { code: 'invalid_backend_output', message, retryable: false } }, shorthand: false };
  }
  const payload: unknown = plain.value;
  if (!isRecord(payload)) return undefined;
  const { executionResultSchema } = relayWireSchemas();
  const canonical = executionResultSchema.safeParse(payload);
  if (canonical.success) return { result: canonical.data as ExecutionResult, shorthand: false };

  const text = textOf(payload);
  const status = statusOf(payload, text);
  if (status === undefined) return undefined;
  const rawStatus = own(payload, 'status');
  const backend = [own(payload, 'backendId'), own(payload, 'backend_id'), own(payload, 'backend')].find(nonBlank);
  const structured = structuredOf(payload);
  const continuation = continuationOf(payload);
  const usage = commonSchemas().usageSchema.safeParse(own(payload, 'usage'));
  const result: ExecutionResult = {
    backendId: backend ?? SHORTHAND_WORKER_BACKEND_ID,
    status: status.status,
    ...(text === undefined && structured === undefined
      ? {}
      : { output: { ...(text === undefined ? {} : { text }), ...(structured === undefined ? {} : { structured }) } }),
    ...(status.error === undefined ? {} : { error: status.error }),
    ...(continuation === undefined ? {} : { continuation }),
    ...(usage.success && usage.data !== undefined ? { usage: usage.data } : {}),
    metadata: { normalizedFromRelayWorker: true, ...(typeof rawStatus === 'string' ? { workerStatus: rawStatus.slice(0, 80) } : {}) },
  };
  return { result, shorthand: true };
}

function textOf(payload: JsonObject): string | undefined {
  for (const field of TEXT_FIELDS) {
    const value = own(payload, field);
    if (nonBlank(value)) return value;
  }
  const output = own(payload, 'output');
  if (nonBlank(output)) return output;
  if (isRecord(output)) {
    for (const field of ['text', 'answer', 'output_text', 'outputText'] as const) {
      const value = own(output, field);
      if (nonBlank(value)) return value;
    }
  }
  return undefined;
}

function statusOf(
  payload: JsonObject,
  text: string | undefined,
): { status: ExecutionResult['status']; error?: ExecutionError } | undefined {
  const raw = own(payload, 'status');
  const okFlag = own(payload, 'ok');
  const errorField = own(payload, 'error');
  const hasError = nonBlank(errorField) || isRecord(errorField);
  const status = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
  if (status !== undefined && PASSED_THROUGH.has(status)) {
    return { status: status as ExecutionResult['status'], ...(hasError ? { error: errorOf(payload, 'backend_execution_error') } : {}) };
  }
  if (status !== undefined && COMPLETED.has(status) && !hasError) return { status: 'completed' };
  if (status !== undefined && TIMED_OUT.has(status)) return { status: 'failed', error: errorOf(payload, 'timeout') };
  if (status !== undefined && status !== '') {
    // Any other status (including `ok` next to an error) is a failure the worker reported: end the wait.
    const detail = COMPLETED.has(status) || FAILED.has(status) ? undefined : `The worker reported status ${JSON.stringify(status.slice(0, 40))}.`;
    return { status: 'failed', error: errorOf(payload, 'backend_execution_error', detail) };
  }
  if (okFlag === false || hasError) return { status: 'failed', error: errorOf(payload, 'backend_execution_error') };
  if (okFlag === true || text !== undefined) return { status: 'completed' };
  return undefined;
}

function errorOf(payload: JsonObject, fallbackCode: ExecutionErrorCode, fallbackMessage?: string): ExecutionError {
  const field = own(payload, 'error');
  let code: ExecutionErrorCode = fallbackCode;
  let message: string | undefined;
  let retryable: boolean | undefined;
  if (nonBlank(field)) message = field;
  if (isRecord(field)) {
    const fieldCode = own(field, 'code');
    if (typeof fieldCode === 'string' && ERROR_CODES.has(fieldCode as ExecutionErrorCode)) code = fieldCode as ExecutionErrorCode;
    message = [own(field, 'message'), own(field, 'error'), own(field, 'detail')].find(nonBlank);
    const fieldRetryable = own(field, 'retryable');
    if (typeof fieldRetryable === 'boolean') retryable = fieldRetryable;
  }
  message ??= ERROR_TEXT_FIELDS.map((key) => own(payload, key)).find(nonBlank) ?? textOf(payload) ?? fallbackMessage;
  return {
    code,
    message: (message ?? 'The worker reported a failure without details.').slice(0, 4_000),
    retryable: retryable ?? code === 'timeout',
  };
}

function structuredOf(payload: JsonObject): Record<string, unknown> | undefined {
  const structured = own(payload, 'structured');
  const toolCalls = own(payload, 'toolCalls') ?? own(payload, 'tool_calls');
  const base = isRecord(structured) ? { ...structured } : undefined;
  if (!Array.isArray(toolCalls)) return base;
  return { ...base, toolCalls };
}

function continuationOf(payload: JsonObject): ExecutionContinuation | undefined {
  const parsed = relayWireSchemas().executionContinuationSchema.safeParse(own(payload, 'continuation'));
  if (parsed.success && parsed.data !== undefined) return parsed.data;
  const sessionId = [own(payload, 'sessionId'), own(payload, 'session_id')].find(nonBlank);
  return sessionId === undefined ? undefined : { continuationId: sessionId };
}
