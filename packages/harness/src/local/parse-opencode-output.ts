import type { ExecutionContinuation } from '../execution/types.js';
import { isRetryableMessage, isRetryableStatus } from './internal/classify-api-error.js';
import { jsonLines } from './internal/json-lines.js';
import { sessionKind } from './local-cli-preset.js';
import type { LocalCommandParsedOutput } from './local-command-options.js';
import { isRecord } from '../shared/is-record.js';

/** Options of {@link parseOpenCodeOutput}. */
export interface ParseOpenCodeOutputOptions {
  /** The session continuation of this run. */
  continuation?: ExecutionContinuation | undefined;
  /** @default 'opencode' */
  backendId?: string | undefined;
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/**
 * Reads the JSON lines of `opencode run --format json`: `sessionID` (the continuation for
 * `--session`), the text parts of the last step that has text (the answer), `step_finish`
 * tokens and cost (summed), and `error` events (whose `isRetryable`/`statusCode` decide
 * `retryable`). Returns `null` when the stream holds neither a finished step nor an error.
 */
export function parseOpenCodeOutput(stdout: string, options: ParseOpenCodeOutputOptions = {}): LocalCommandParsedOutput | null {
  let sessionId: string | undefined;
  let stepTexts: string[] = [];
  let answer: string[] = [];
  let finished = false;
  let toolCalls = 0;
  let inputTokens = 0;
  let outputTokens = 0;
  let cost = 0;
  let error: Record<string, unknown> | undefined;
  for (const event of jsonLines(stdout)) {
    if (typeof event['sessionID'] === 'string') sessionId = event['sessionID'];
    const part = isRecord(event['part']) ? event['part'] : {};
    switch (event['type']) {
      case 'step_start':
        stepTexts = [];
        break;
      case 'text':
        if (typeof part['text'] === 'string') {
          stepTexts.push(part['text']);
          answer = stepTexts;
        }
        break;
      case 'tool_use':
        toolCalls += 1;
        break;
      case 'step_finish': {
        finished = true;
        const tokens = isRecord(part['tokens']) ? part['tokens'] : {};
        const cache = isRecord(tokens['cache']) ? tokens['cache'] : {};
        inputTokens += num(tokens['input']) + num(cache['read']) + num(cache['write']);
        outputTokens += num(tokens['output']) + num(tokens['reasoning']);
        cost += num(part['cost']);
        break;
      }
      case 'error':
        error = isRecord(event['error']) ? event['error'] : { message: 'opencode reported an error.' };
        break;
    }
  }
  if (!finished && error === undefined) return null;
  const id = sessionId ?? options.continuation?.continuationId;
  const continuation: ExecutionContinuation | undefined =
    id === undefined ? undefined : { kind: sessionKind(options.backendId ?? 'opencode'), continuationId: id, state: {} };
  const base: LocalCommandParsedOutput = {
    ...(continuation === undefined ? {} : { continuation }),
    usage: { inputTokens, outputTokens, costUnits: cost },
    metadata: { ...(id === undefined ? {} : { sessionId: id }), toolCallCount: toolCalls },
  };
  if (error === undefined) return { ...base, status: 'completed', ...(answer.length === 0 ? {} : { text: answer.join('') }) };
  const data = isRecord(error['data']) ? error['data'] : {};
  const message =
    typeof data['message'] === 'string' ? data['message'] : typeof error['message'] === 'string' ? error['message'] : String(error['name'] ?? 'unknown error');
  const status = typeof data['statusCode'] === 'number' ? data['statusCode'] : undefined;
  const retryable =
    typeof data['isRetryable'] === 'boolean' ? data['isRetryable'] : status === undefined ? isRetryableMessage(message) : isRetryableStatus(status);
  return {
    ...base,
    status: 'failed',
    error: {
      code: 'backend_execution_error',
      message: `opencode failed: ${message}`,
      retryable,
      metadata: { ...(typeof error['name'] === 'string' ? { name: error['name'] } : {}), ...(status === undefined ? {} : { status }) },
    },
  };
}
