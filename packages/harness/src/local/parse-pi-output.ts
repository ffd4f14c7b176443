import type { ExecutionContinuation } from '../execution/types.js';
import type { HarnessUsage } from '../shared/types/usage.js';
import { isRecord } from '../shared/is-record.js';
import { innerMessage, isRetryableMessage } from './internal/classify-api-error.js';
import { jsonLines } from './internal/json-lines.js';
import { sessionKind } from './local-cli-preset.js';
import type { LocalCommandParsedOutput } from './local-command-options.js';

/** Options of {@link parsePiOutput}. */
export interface ParsePiOutputOptions {
  /** The session continuation of this run (kept when the output names no session). */
  continuation?: ExecutionContinuation | undefined;
  /** Captured stderr: explains an empty stdout (a session of another directory, an unknown session). */
  stderr?: string | undefined;
  /** @default 'pi' */
  backendId?: string | undefined;
}

const OTHER_PROJECT = /Session found in different project: ?(.*)/;

/**
 * Reads `pi -p --mode json` (pi 0.73): the `session` header line (its `id` is the continuation),
 * the assistant `message_end` events (the answer is the text of the last one; `usage` and
 * `usage.cost.total` are summed over all of them) and `agent_end`. pi exits 0 after a model error:
 * an assistant message with `stopReason: "error"` (or `"aborted"`) is a failure here, with its
 * `errorMessage`. An empty stdout after pi refused a session of another directory is a failure
 * that says so. Returns `null` when stdout holds no pi events at all.
 */
export function parsePiOutput(stdout: string, options: ParsePiOutputOptions = {}): LocalCommandParsedOutput | null {
  const backendId = options.backendId ?? 'pi';
  const lines = jsonLines(stdout);
  const header = lines.find((line) => line['type'] === 'session');
  const sessionId = typeof header?.['id'] === 'string' && header['id'] !== '' ? header['id'] : undefined;
  const continuation: ExecutionContinuation | undefined =
    sessionId === undefined ? options.continuation : { kind: sessionKind(backendId), continuationId: sessionId, state: {} };
  const base: LocalCommandParsedOutput = {
    ...(continuation === undefined ? {} : { continuation }),
    metadata: { ...(sessionId === undefined ? {} : { sessionId }) },
  };
  if (header === undefined) {
    const otherProject = OTHER_PROJECT.exec(options.stderr ?? '');
    if (otherProject === null) return null;
    return {
      ...base,
      status: 'failed',
      error: {
        code: 'backend_execution_error',
        message: `pi refused to resume the session: it belongs to another working directory (${otherProject[1]?.trim() ?? 'unknown'}) and pi printed nothing.`,
        retryable: false,
      },
    };
  }
  const assistant = lines
    .filter((line) => line['type'] === 'message_end' && isRecord(line['message']) && line['message']['role'] === 'assistant')
    .map((line) => line['message'] as Record<string, unknown>);
  const usage = summedUsage(assistant);
  const withUsage = { ...base, ...(usage === undefined ? {} : { usage }) };
  const last = assistant.at(-1);
  const stopReason = last?.['stopReason'];
  if (stopReason === 'error' || stopReason === 'aborted') {
    const raw = typeof last?.['errorMessage'] === 'string' && last['errorMessage'] !== '' ? last['errorMessage'] : `the model call ended with stopReason "${stopReason}"`;
    return {
      ...withUsage,
      status: 'failed',
      error: { code: 'backend_execution_error', message: `pi failed: ${innerMessage(raw)}`, retryable: stopReason === 'error' && isRetryableMessage(raw) },
    };
  }
  if (!lines.some((line) => line['type'] === 'agent_end') || last === undefined) {
    return {
      ...withUsage,
      status: 'failed',
      error: { code: 'invalid_backend_output', message: 'pi stopped before its run ended (no agent_end event).', retryable: true },
    };
  }
  return { ...withUsage, status: 'completed', text: textOf(last['content']) };
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((part): part is Record<string, unknown> => isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string')
    .map((part) => part['text'] as string)
    .join('');
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);

/** pi's `usage` summed over assistant messages: `input` excludes cache reads and writes, which count as input here. */
function summedUsage(messages: readonly Record<string, unknown>[]): HarnessUsage | undefined {
  let reported = false;
  let input = 0;
  let output = 0;
  let cached = 0;
  let cost = 0;
  for (const message of messages) {
    const usage = message['usage'];
    if (!isRecord(usage)) continue;
    reported = true;
    input += count(usage['input']) + count(usage['cacheRead']) + count(usage['cacheWrite']);
    output += count(usage['output']);
    cached += count(usage['cacheRead']);
    cost += isRecord(usage['cost']) ? count(usage['cost']['total']) : 0;
  }
  if (!reported) return undefined;
  return { inputTokens: input, outputTokens: output, ...(cached > 0 ? { cachedInputTokens: cached } : {}), costUnits: cost };
}
