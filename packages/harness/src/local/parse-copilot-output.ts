import type { ExecutionContinuation } from '../execution/types.js';
import type { HarnessUsage } from '../shared/types/usage.js';
import { isRecord } from '../shared/is-record.js';
import { innerMessage, isRetryableMessage, isRetryableStatus } from './internal/classify-api-error.js';
import { firstJsonObject, jsonLines } from './internal/json-lines.js';
import { sessionKind } from './local-cli-preset.js';
import type { LocalCommandParsedOutput } from './local-command-options.js';

/** Options of {@link parseCopilotOutput}. */
export interface ParseCopilotOutputOptions {
  /** The session continuation of this run (its id was chosen with `--session-id`). */
  continuation?: ExecutionContinuation | undefined;
  /** Captured stderr: explains a run that printed no events (no sign-in). */
  stderr?: string | undefined;
  /** The text of the file `--usage-output-file` wrote: token counts per model. */
  usageReport?: string | undefined;
  /** @default 'copilot' */
  backendId?: string | undefined;
}

/** A tool call Copilot refused to run because nobody could approve it (`code: "denied"`). */
export interface CopilotDeniedTool {
  toolCallId: string;
  name: string;
  command?: string | undefined;
}

/**
 * Reads `copilot -p --output-format json` (Copilot CLI 1.0): JSON lines `{type, data}` ending with
 * `{type: "result", sessionId, exitCode}`. The answer is the last `assistant.message` with text;
 * `session.error` (or a non-zero `result.exitCode`) is a failure, retryable by its `statusCode`.
 * Tool calls denied for want of an approver are listed in `metadata.deniedTools`. Token counts come
 * from the `--usage-output-file` report (`modelMetrics[model].usage`), summed over models. A run
 * without sign-in (stderr `No authentication information found`) fails saying how to sign in.
 * Returns `null` when stdout holds no Copilot events otherwise.
 */
export function parseCopilotOutput(stdout: string, options: ParseCopilotOutputOptions = {}): LocalCommandParsedOutput | null {
  const lines = jsonLines(stdout);
  const result = [...lines].reverse().find((line) => line['type'] === 'result');
  if (result === undefined && !lines.some((line) => typeof line['type'] === 'string' && isRecord(line['data']))) {
    if (!(options.stderr ?? '').includes('No authentication information found')) return null;
    return {
      ...(options.continuation === undefined ? {} : { continuation: options.continuation }),
      status: 'failed',
      error: {
        code: 'backend_execution_error',
        message:
          'GitHub Copilot CLI is not signed in: give the adapter a `provider` (your own model endpoint), or a token in `env` (COPILOT_GITHUB_TOKEN, GH_TOKEN or GITHUB_TOKEN).',
        retryable: false,
      },
    };
  }
  const sessionId = typeof result?.['sessionId'] === 'string' && result['sessionId'] !== '' ? result['sessionId'] : undefined;
  const continuation: ExecutionContinuation | undefined =
    sessionId === undefined ? options.continuation : { kind: sessionKind(options.backendId ?? 'copilot'), continuationId: sessionId, state: {} };
  const denied = deniedTools(lines);
  const usage = usageOf(options.usageReport);
  const base: LocalCommandParsedOutput = {
    ...(continuation === undefined ? {} : { continuation }),
    ...(usage === undefined ? {} : { usage }),
    metadata: { ...(sessionId === undefined ? {} : { sessionId }), ...(denied.length === 0 ? {} : { deniedTools: denied }) },
  };
  const sessionError = [...lines].reverse().find((line) => line['type'] === 'session.error');
  if (sessionError !== undefined) {
    const data = isRecord(sessionError['data']) ? sessionError['data'] : {};
    const raw = typeof data['message'] === 'string' && data['message'] !== '' ? data['message'] : 'Copilot reported an error.';
    const status = typeof data['statusCode'] === 'number' ? data['statusCode'] : undefined;
    return {
      ...base,
      status: 'failed',
      error: {
        code: 'backend_execution_error',
        message: `GitHub Copilot CLI failed: ${innerMessage(raw)}`,
        retryable: status === undefined ? isRetryableMessage(raw) : isRetryableStatus(status),
        ...(status === undefined ? {} : { metadata: { status } }),
      },
    };
  }
  if (result === undefined) {
    return { ...base, status: 'failed', error: { code: 'invalid_backend_output', message: 'GitHub Copilot CLI stopped before its result line.', retryable: true } };
  }
  if (result['exitCode'] !== 0) {
    return {
      ...base,
      status: 'failed',
      error: { code: 'backend_execution_error', message: `GitHub Copilot CLI reported exit code ${String(result['exitCode'])}.`, retryable: false },
    };
  }
  return { ...base, status: 'completed', text: lastAnswer(lines) };
}

function lastAnswer(lines: readonly Record<string, unknown>[]): string {
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index]!;
    const data = line['data'];
    if (line['type'] === 'assistant.message' && isRecord(data) && typeof data['content'] === 'string' && data['content'] !== '') return data['content'];
  }
  return '';
}

/** The tool calls whose `tool.execution_complete` says `error.code: "denied"`, named from their start. */
function deniedTools(lines: readonly Record<string, unknown>[]): CopilotDeniedTool[] {
  const started = new Map<string, { name: string; command?: string }>();
  const denied: CopilotDeniedTool[] = [];
  for (const line of lines) {
    const data = isRecord(line['data']) ? line['data'] : undefined;
    const id = typeof data?.['toolCallId'] === 'string' ? data['toolCallId'] : undefined;
    if (data === undefined || id === undefined) continue;
    if (line['type'] === 'tool.execution_start') started.set(id, toolStart(data));
    else if (line['type'] === 'tool.execution_complete' && isDenied(data)) denied.push({ toolCallId: id, ...(started.get(id) ?? { name: 'tool' }) });
  }
  return denied;
}

/** Name and shell command of a `tool.execution_start`'s data. */
export function toolStart(data: Record<string, unknown>): { name: string; command?: string } {
  const name = typeof data['toolName'] === 'string' ? data['toolName'] : 'tool';
  const args = isRecord(data['arguments']) ? data['arguments'] : {};
  return { name, ...(typeof args['command'] === 'string' ? { command: args['command'] } : {}) };
}

/** True when a `tool.execution_complete`'s data says Copilot refused the call (no one could approve it). */
export function isDenied(data: Record<string, unknown>): boolean {
  return data['success'] !== true && isRecord(data['error']) && data['error']['code'] === 'denied';
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);

function usageOf(report: string | undefined): HarnessUsage | undefined {
  const parsed = report === undefined ? undefined : firstJsonObject(report);
  const models = isRecord(parsed?.['modelMetrics']) ? parsed['modelMetrics'] : undefined;
  if (models === undefined) return undefined;
  let input = 0;
  let output = 0;
  let cached = 0;
  for (const model of Object.values(models)) {
    const usage = isRecord(model) && isRecord(model['usage']) ? model['usage'] : {};
    input += count(usage['inputTokens']);
    output += count(usage['outputTokens']);
    cached += count(usage['cacheReadTokens']);
  }
  return { inputTokens: input, outputTokens: output, ...(cached > 0 ? { cachedInputTokens: cached } : {}) };
}
