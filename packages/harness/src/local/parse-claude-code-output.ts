import * as v from '../shared/validation/index.js';
import { lenientSchema } from '../shared/schemas/lenient-schema.js';
import { lazySchema } from '../shared/schemas/lazy-schema.js';
import type { ExecutionContinuation } from '../execution/types.js';
import { innerMessage, isRetryableStatus, isRetryableMessage } from './internal/classify-api-error.js';
import { jsonLines } from './internal/json-lines.js';
import { sessionKind, stateNumber } from './local-cli-preset.js';
import type { LocalCommandParsedOutput } from './local-command-options.js';
import { isRecord } from '../shared/is-record.js';

const lenient = lenientSchema;

/** The final `result` object of `claude -p --output-format json|stream-json`, validated. */
export interface ClaudeCodeResultObject {
  type: 'result';
  subtype?: string | undefined;
  is_error?: boolean | undefined;
  result?: string | undefined;
  session_id?: string | undefined;
  total_cost_usd?: number | undefined;
  usage?: {
    input_tokens?: number | undefined;
    output_tokens?: number | undefined;
    cache_creation_input_tokens?: number | undefined;
    cache_read_input_tokens?: number | undefined;
  } | undefined;
  num_turns?: number | undefined;
  duration_ms?: number | undefined;
  duration_api_ms?: number | undefined;
  stop_reason?: string | undefined;
  terminal_reason?: string | undefined;
  api_error_status?: number | undefined;
  api_error_type?: string | undefined;
  permission_denials?: unknown[] | undefined;
  structured_output?: Record<string, unknown> | undefined;
}

const claudeResultSchema = /* @__PURE__ */ lazySchema(() => {
  const count = lenient(v.number());
  return v.object({
    type: v.literal('result'),
    subtype: lenient(v.string()),
    is_error: lenient(v.boolean()),
    result: lenient(v.string()),
    session_id: lenient(v.string()),
    total_cost_usd: lenient(v.number()),
    usage: lenient(
      v.object({
        input_tokens: count,
        output_tokens: count,
        cache_creation_input_tokens: count,
        cache_read_input_tokens: count,
      }),
    ),
    num_turns: count,
    duration_ms: count,
    duration_api_ms: count,
    stop_reason: lenient(v.string()),
    terminal_reason: lenient(v.string()),
    api_error_status: lenient(v.number()),
    api_error_type: lenient(v.string()),
    permission_denials: lenient(v.array(v.unknown())),
    structured_output: lenient(v.record(v.string(), v.unknown())),
  });
});

/** Options of {@link parseClaudeCodeOutput}. */
export interface ParseClaudeCodeOutputOptions {
  /** The session continuation of this run; its `state.totalCostUsd` turns Claude's session-cumulative cost into this run's cost. */
  continuation?: ExecutionContinuation | undefined;
  /** @default 'claude-code' */
  backendId?: string | undefined;
}

/**
 * Reads the output of `claude -p --output-format json` (one object) or `stream-json` (JSON
 * lines; the last `result` line counts). `is_error: true` or an `error_*` subtype is a failure
 * (`error_max_turns` is `deferred`, `error_max_budget_usd` is `budget_exceeded`); an API error's
 * status decides `retryable`. `usage` becomes tokens, the session's cost increase becomes
 * `costUnits` (USD), and `session_id` the continuation for `--resume`. Returns `null` when
 * there is no result object.
 */
export function parseClaudeCodeOutput(stdout: string, options: ParseClaudeCodeOutputOptions = {}): LocalCommandParsedOutput | null {
  const candidate = findResultObject(stdout);
  if (candidate === undefined) return null;
  const parsed = claudeResultSchema.safeParse(candidate);
  if (!parsed.success) return null;
  const result = parsed.data;
  const previous = options.continuation;
  const sessionId = result.session_id ?? previous?.continuationId;
  const sameSession = previous?.continuationId !== undefined && previous.continuationId === sessionId;
  const costBefore = sameSession ? stateNumber(previous, 'totalCostUsd') : undefined;
  const continuation: ExecutionContinuation | undefined =
    sessionId === undefined
      ? undefined
      : {
          kind: sessionKind(options.backendId ?? 'claude-code'),
          continuationId: sessionId,
          state: { totalCostUsd: result.total_cost_usd ?? costBefore ?? 0 },
        };
  const usage = result.usage;
  const inputTokens =
    usage === undefined
      ? undefined
      : (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  const costUnits =
    result.total_cost_usd === undefined
      ? undefined
      : Math.max(0, result.total_cost_usd - (costBefore !== undefined && costBefore <= result.total_cost_usd ? costBefore : 0));
  const metadata: Record<string, unknown> = {
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(result.subtype === undefined ? {} : { subtype: result.subtype }),
    ...(result.num_turns === undefined ? {} : { numTurns: result.num_turns }),
    ...(result.duration_api_ms === undefined ? {} : { durationApiMs: result.duration_api_ms }),
    ...(result.stop_reason === undefined ? {} : { stopReason: result.stop_reason }),
    ...(result.terminal_reason === undefined ? {} : { terminalReason: result.terminal_reason }),
    ...(result.api_error_status === undefined ? {} : { apiErrorStatus: result.api_error_status }),
    ...(result.permission_denials === undefined || result.permission_denials.length === 0
      ? {}
      : { permissionDenials: result.permission_denials.length }),
  };
  const base: LocalCommandParsedOutput = {
    ...(continuation === undefined ? {} : { continuation }),
    usage: {
      ...(inputTokens === undefined ? {} : { inputTokens }),
      ...(usage?.output_tokens === undefined ? {} : { outputTokens: usage.output_tokens }),
      ...(costUnits === undefined ? {} : { costUnits }),
    },
    metadata,
  };
  const subtype = result.subtype ?? 'success';
  if (result.is_error !== true && !subtype.startsWith('error')) {
    return {
      ...base,
      status: 'completed',
      ...(result.result === undefined ? {} : { text: result.result }),
      ...(result.structured_output === undefined ? {} : { structured: result.structured_output }),
    };
  }
  const message = result.result !== undefined && result.result.trim() !== '' ? innerMessage(result.result) : `Claude Code ended with ${subtype}.`;
  if (subtype === 'error_max_turns') {
    return {
      ...base,
      status: 'deferred',
      error: { code: 'other', message: 'Claude Code reached its turn limit (--max-turns) before finishing.', retryable: true },
    };
  }
  if (subtype === 'error_max_budget_usd') {
    return { ...base, status: 'failed', error: { code: 'budget_exceeded', message: 'Claude Code reached its budget (--max-budget-usd).', retryable: false } };
  }
  const status = result.api_error_status;
  return {
    ...base,
    status: 'failed',
    error: {
      code: 'backend_execution_error',
      message: `Claude Code failed: ${message}`,
      retryable: status === undefined ? isRetryableMessage(message) : isRetryableStatus(status),
      ...(status === undefined && result.api_error_type === undefined
        ? {}
        : { metadata: { ...(status === undefined ? {} : { status }), ...(result.api_error_type === undefined ? {} : { type: result.api_error_type }) } }),
    },
  };
}

function findResultObject(stdout: string): Record<string, unknown> | undefined {
  const trimmed = stdout.trim();
  if (trimmed.startsWith('{') && !trimmed.includes('\n')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      if (isRecord(value)) return value;
    } catch {
      // Fall through to JSON lines.
    }
  }
  return jsonLines(stdout)
    .reverse()
    .find((line) => line['type'] === 'result');
}
