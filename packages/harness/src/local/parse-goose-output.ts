import type { ExecutionContinuation, ExecutionStreamEvent } from '../execution/types.js';
import { isRecord } from '../shared/is-record.js';
import { isRetryableMessage } from './internal/classify-api-error.js';
import { jsonLineObject, jsonLines } from './internal/json-lines.js';
import { sessionKind } from './local-cli-preset.js';
import type { LocalCommandParsedOutput } from './local-command-options.js';
import { toolActivityKind } from './tool-activity-kind.js';

/** Options of {@link parseGooseOutput}. */
export interface ParseGooseOutputOptions {
  /** The session continuation of this run (goose prints no session id; the preset names the session). */
  continuation?: ExecutionContinuation | undefined;
  /** @default 'goose' */
  backendId?: string | undefined;
}

/** goose's words when a tool needs a confirmation that a headless run cannot ask for (crates/goose-cli/src/session/mod.rs). */
const APPROVAL_REQUIRED = /Tool approval required in non-interactive mode/;
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** The content items of a stream-json `message` event, with its role. */
function messageOf(event: Record<string, unknown>): { role: unknown; content: Record<string, unknown>[] } | undefined {
  if (event['type'] !== 'message' || !isRecord(event['message'])) return undefined;
  const content = event['message']['content'];
  return { role: event['message']['role'], content: Array.isArray(content) ? content.filter(isRecord) : [] };
}

/**
 * Reads `goose run --output-format stream-json`: the assistant text after the last tool result
 * (one answer may span several `message` lines), `toolRequest` items (counted), the `complete`
 * line's tokens, and `error` lines (a tool confirmation refused in a headless run is said so).
 * Returns `null` when the stream holds neither `complete` nor `error`.
 */
export function parseGooseOutput(stdout: string, options: ParseGooseOutputOptions = {}): LocalCommandParsedOutput | null {
  let answer: string[] = [];
  let toolCalls = 0;
  let finished = false;
  let usage: { inputTokens: number; outputTokens: number } | undefined;
  let error: string | undefined;
  for (const event of jsonLines(stdout)) {
    const message = messageOf(event);
    if (message !== undefined) {
      for (const item of message.content) {
        if (item['type'] === 'toolResponse') answer = [];
        if (item['type'] === 'toolRequest') toolCalls += 1;
        if (message.role === 'assistant' && item['type'] === 'text' && typeof item['text'] === 'string') answer.push(item['text']);
      }
    } else if (event['type'] === 'error') {
      error = typeof event['error'] === 'string' ? event['error'] : 'goose reported an error.';
    } else if (event['type'] === 'complete') {
      finished = true;
      usage = { inputTokens: num(event['input_tokens']), outputTokens: num(event['output_tokens']) };
    }
  }
  if (!finished && error === undefined) return null;
  const continuation = options.continuation === undefined ? undefined : { ...options.continuation, kind: sessionKind(options.backendId ?? 'goose') };
  const base: LocalCommandParsedOutput = {
    ...(continuation === undefined ? {} : { continuation }),
    ...(usage === undefined ? {} : { usage }),
    metadata: { ...(continuation?.continuationId === undefined ? {} : { sessionName: continuation.continuationId }), toolCallCount: toolCalls },
  };
  if (error === undefined) return { ...base, status: 'completed', ...(answer.length === 0 ? {} : { text: answer.join('') }) };
  const approval = APPROVAL_REQUIRED.test(error);
  return {
    ...base,
    status: 'failed',
    error: {
      code: 'backend_execution_error',
      message: approval
        ? `goose stopped: a tool needs approval, which goose cannot ask for in a headless run (${error}). Allow tools with the preset's \`mode\` option ('smart_approve' or 'auto').`
        : `goose failed: ${error}`,
      retryable: !approval && isRetryableMessage(error),
      ...(approval ? { metadata: { approvalRequired: true } } : {}),
    },
  };
}

/** Tool names remembered per run to label `finished` events; more are labelled `tool`. */
const MAX_REMEMBERED_TOOLS = 1_000;

/** `developer__shell` → `shell`: goose prefixes tool names with their extension. */
const bareToolName = (name: string) => name.slice(name.lastIndexOf('__') + (name.includes('__') ? 2 : 0));

/**
 * A reader of `goose run --output-format stream-json` lines: assistant text as deltas (goose
 * emits each message as the agent yields it), `toolRequest` / `toolResponse` as tool activity.
 */
export function createGooseStreamReader(): (line: string) => ExecutionStreamEvent[] {
  const toolNames = new Map<string, string>();
  return (line) => {
    const event = jsonLineObject(line);
    const message = event === undefined ? undefined : messageOf(event);
    if (message === undefined) return [];
    const events: ExecutionStreamEvent[] = [];
    for (const item of message.content) {
      const id = typeof item['id'] === 'string' ? item['id'] : undefined;
      if (message.role === 'assistant' && item['type'] === 'text' && typeof item['text'] === 'string' && item['text'] !== '') {
        events.push({ type: 'text_delta', text: item['text'] });
      } else if (item['type'] === 'toolRequest' && id !== undefined) {
        const call = isRecord(item['toolCall']) && isRecord(item['toolCall']['value']) ? item['toolCall']['value'] : {};
        const name = typeof call['name'] === 'string' ? call['name'] : 'tool';
        const args = isRecord(call['arguments']) ? call['arguments'] : {};
        const kind = toolActivityKind(bareToolName(name));
        if (toolNames.size < MAX_REMEMBERED_TOOLS) toolNames.set(id, name);
        events.push({
          type: 'tool_activity',
          phase: 'started',
          toolCallId: id,
          name,
          kind,
          ...(kind === 'command' && typeof args['command'] === 'string' ? { command: args['command'] } : {}),
        });
      } else if (item['type'] === 'toolResponse' && id !== undefined) {
        const name = toolNames.get(id) ?? 'tool';
        toolNames.delete(id);
        const result = isRecord(item['toolResult']) ? item['toolResult'] : {};
        const status = result['status'] === 'success' ? 'succeeded' : 'failed';
        events.push({ type: 'tool_activity', phase: 'finished', toolCallId: id, name, kind: toolActivityKind(bareToolName(name)), status });
      }
    }
    return events;
  };
}
