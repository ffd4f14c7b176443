import type { ExecutionContinuation } from '../execution/types.js';
import { innerMessage, isRetryableMessage, statusFromMessage } from './internal/classify-api-error.js';
import { jsonLines } from './internal/json-lines.js';
import { sessionKind, stateNumber } from './local-cli-preset.js';
import type { LocalCommandParsedOutput } from './local-command-options.js';
import { isRecord } from '../shared/is-record.js';

/** Options of {@link parseCodexOutput}. */
export interface ParseCodexOutputOptions {
  /**
   * The thread continuation of this run. Codex reports token counts cumulated over a resumed
   * thread; its `state.inputTokens`/`state.outputTokens` turn them into this run's usage.
   */
  continuation?: ExecutionContinuation | undefined;
  /** @default 'codex' */
  backendId?: string | undefined;
}

const TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search']);

const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * Reads the JSON lines of `codex exec --json`: `thread.started` gives the thread id (the
 * continuation for `codex exec resume`), the last `agent_message` item the answer,
 * `turn.completed` the usage, `turn.failed` (or an `error` without a completed turn) a failure
 * whose HTTP status decides `retryable`. Returns `null` when the stream shows no turn outcome.
 */
export function parseCodexOutput(stdout: string, options: ParseCodexOutputOptions = {}): LocalCommandParsedOutput | null {
  let threadId: string | undefined;
  let text: string | undefined;
  let usage: Record<string, unknown> | undefined;
  let failure: string | undefined;
  let lastError: string | undefined;
  let completed = false;
  let toolCalls = 0;
  for (const event of jsonLines(stdout)) {
    const type = event['type'];
    if (type === 'thread.started' && typeof event['thread_id'] === 'string') threadId = event['thread_id'];
    else if (type === 'item.completed' && isRecord(event['item'])) {
      const item = event['item'];
      if (item['type'] === 'agent_message' && typeof item['text'] === 'string') text = item['text'];
      else if (TOOL_ITEMS.has(item['type'] as string)) toolCalls += 1;
    } else if (type === 'turn.completed') {
      completed = true;
      usage = isRecord(event['usage']) ? event['usage'] : undefined;
    } else if (type === 'turn.failed') {
      const error = isRecord(event['error']) ? event['error'] : {};
      failure = typeof error['message'] === 'string' ? error['message'] : 'the turn failed';
    } else if (type === 'error' && typeof event['message'] === 'string') {
      lastError = event['message'];
    }
  }
  if (!completed && failure === undefined && lastError === undefined) return null;

  const previous = options.continuation;
  const sameThread = previous?.continuationId !== undefined && previous.continuationId === threadId;
  const inputTotal = usage === undefined ? undefined : number(usage['input_tokens']);
  const outputTotal = usage === undefined ? undefined : number(usage['output_tokens']);
  const before = (key: string, total: number | undefined) => {
    const value = sameThread ? stateNumber(previous, key) : undefined;
    return total !== undefined && value !== undefined && value <= total ? value : 0;
  };
  const id = threadId ?? previous?.continuationId;
  const continuation: ExecutionContinuation | undefined =
    id === undefined
      ? undefined
      : {
          kind: sessionKind(options.backendId ?? 'codex'),
          continuationId: id,
          state: {
            inputTokens: inputTotal ?? stateNumber(previous, 'inputTokens') ?? 0,
            outputTokens: outputTotal ?? stateNumber(previous, 'outputTokens') ?? 0,
          },
        };
  const base: LocalCommandParsedOutput = {
    ...(continuation === undefined ? {} : { continuation }),
    usage: {
      ...(inputTotal === undefined ? {} : { inputTokens: inputTotal - before('inputTokens', inputTotal) }),
      ...(outputTotal === undefined ? {} : { outputTokens: outputTotal - before('outputTokens', outputTotal) }),
    },
    metadata: { ...(id === undefined ? {} : { threadId: id }), toolCallCount: toolCalls },
  };
  if (completed && failure === undefined) {
    return { ...base, status: 'completed', ...(text === undefined ? {} : { text }) };
  }
  const raw = failure ?? lastError ?? 'the turn failed';
  const status = statusFromMessage(raw);
  return {
    ...base,
    status: 'failed',
    error: {
      code: 'backend_execution_error',
      message: `Codex failed: ${innerMessage(raw)}`,
      retryable: isRetryableMessage(raw, status),
      ...(status === undefined ? {} : { metadata: { status } }),
    },
  };
}
