import type { ExecutionContinuation, ExecutionStreamEvent } from '../execution/types.js';
import { isRecord } from '../shared/is-record.js';
import { isRetryableMessage } from './internal/classify-api-error.js';
import { jsonLineObject, jsonLines } from './internal/json-lines.js';
import { sessionKind } from './local-cli-preset.js';
import type { LocalCommandParsedOutput } from './local-command-options.js';
import { toolActivityKind } from './tool-activity-kind.js';

/** Options of {@link parseCursorOutput}. */
export interface ParseCursorOutputOptions {
  /** The session continuation of this run, when it resumed one. */
  continuation?: ExecutionContinuation | undefined;
  /** @default 'cursor' */
  backendId?: string | undefined;
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** A stream-json `tool_call` event as tool activity: its `<name>ToolCall` key, args and result. */
function toolCallOf(event: Record<string, unknown>): { id: string; name: string; command?: string; status?: 'succeeded' | 'failed' | 'rejected' } | undefined {
  if (event['type'] !== 'tool_call' || typeof event['call_id'] !== 'string' || !isRecord(event['tool_call'])) return undefined;
  const key = Object.keys(event['tool_call']).find((name) => name.endsWith('ToolCall'));
  if (key === undefined) return { id: event['call_id'], name: 'tool' };
  const call = isRecord(event['tool_call'][key]) ? event['tool_call'][key] : {};
  const args = isRecord(call['args']) ? call['args'] : {};
  const result = isRecord(call['result']) ? call['result'] : undefined;
  const outcome = result === undefined ? undefined : ['success', 'rejected', 'failure', 'error'].find((name) => name in result);
  const detail = result !== undefined && outcome !== undefined && isRecord(result[outcome]) ? result[outcome] : {};
  const command = typeof args['command'] === 'string' ? args['command'] : typeof detail['command'] === 'string' ? detail['command'] : undefined;
  const status = outcome === undefined ? undefined : outcome === 'success' ? 'succeeded' : outcome === 'rejected' ? 'rejected' : 'failed';
  return { id: event['call_id'], name: key.slice(0, -'ToolCall'.length), ...(command === undefined ? {} : { command }), ...(status === undefined ? {} : { status }) };
}

/**
 * Reads `cursor-agent -p --output-format stream-json`: `session_id` (the continuation for
 * `--resume`), the terminal `result` event (`result` is the answer; `is_error` a failure;
 * `usage.inputTokens/outputTokens`), and completed tool calls (counted; shell calls that came back
 * `rejected` — every one without `--force` — are counted apart). Returns `null` without a
 * `result` event (the CLI then failed with its error on stderr).
 */
export function parseCursorOutput(stdout: string, options: ParseCursorOutputOptions = {}): LocalCommandParsedOutput | null {
  let sessionId: string | undefined;
  let result: Record<string, unknown> | undefined;
  let toolCalls = 0;
  let rejected = 0;
  for (const event of jsonLines(stdout)) {
    if (typeof event['session_id'] === 'string' && event['session_id'] !== '') sessionId = event['session_id'];
    if (event['type'] === 'result') result = event;
    const call = event['subtype'] === 'completed' ? toolCallOf(event) : undefined;
    if (call !== undefined) {
      toolCalls += 1;
      if (call.status === 'rejected') rejected += 1;
    }
  }
  if (result === undefined) return null;
  const id = sessionId ?? options.continuation?.continuationId;
  const continuation: ExecutionContinuation | undefined =
    id === undefined ? undefined : { kind: sessionKind(options.backendId ?? 'cursor'), continuationId: id, state: {} };
  const usage = isRecord(result['usage']) ? result['usage'] : undefined;
  const text = typeof result['result'] === 'string' ? result['result'] : undefined;
  const base: LocalCommandParsedOutput = {
    ...(continuation === undefined ? {} : { continuation }),
    ...(usage === undefined ? {} : { usage: { inputTokens: num(usage['inputTokens']), outputTokens: num(usage['outputTokens']) } }),
    metadata: { ...(id === undefined ? {} : { sessionId: id }), toolCallCount: toolCalls, ...(rejected === 0 ? {} : { rejectedToolCalls: rejected }) },
  };
  if (result['is_error'] !== true && result['subtype'] !== 'error') return { ...base, status: 'completed', ...(text === undefined ? {} : { text }) };
  const message = text ?? (typeof result['error'] === 'string' ? result['error'] : 'Cursor reported an error.');
  return { ...base, status: 'failed', error: { code: 'backend_execution_error', message: `Cursor CLI failed: ${message}`, retryable: isRetryableMessage(message) } };
}

/**
 * A reader of `cursor-agent … --stream-partial-output` lines. Text deltas are the `assistant`
 * events with `timestamp_ms` and no `model_call_id`; the others repeat that text (with a
 * `model_call_id`) or the whole answer (no `timestamp_ms`), as Cursor staff explained on
 * forum.cursor.com ("stream-partial-output: assistant events have multiple undocumented forms").
 * `tool_call` started/completed become tool activity (a `rejected` shell call is `rejected`).
 */
export function createCursorStreamReader(): (line: string) => ExecutionStreamEvent[] {
  return (line) => {
    const event = jsonLineObject(line);
    if (event === undefined) return [];
    if (event['type'] === 'assistant') {
      if (!('timestamp_ms' in event) || 'model_call_id' in event || !isRecord(event['message'])) return [];
      const content = Array.isArray(event['message']['content']) ? event['message']['content'] : [];
      return content
        .filter((item): item is { type: 'text'; text: string } => isRecord(item) && item['type'] === 'text' && typeof item['text'] === 'string' && item['text'] !== '')
        .map((item) => ({ type: 'text_delta' as const, text: item.text }));
    }
    const call = toolCallOf(event);
    if (call === undefined) return [];
    const kind = toolActivityKind(call.name);
    const common = { type: 'tool_activity' as const, toolCallId: call.id, name: call.name, kind, ...(kind === 'command' && call.command !== undefined ? { command: call.command } : {}) };
    if (event['subtype'] === 'started') return [{ ...common, phase: 'started' }];
    if (event['subtype'] !== 'completed') return [];
    return [{ ...common, phase: 'finished', status: call.status ?? 'succeeded' }];
  };
}
