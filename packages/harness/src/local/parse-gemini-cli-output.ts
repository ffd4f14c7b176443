import type { ExecutionContinuation } from '../execution/types.js';
import { innerMessage, isRetryableMessage, isRetryableStatus, statusFromMessage } from './internal/classify-api-error.js';
import { geminiStreamReport } from './internal/gemini-stream-report.js';
import { firstJsonObject } from './internal/json-lines.js';
import { sessionKind } from './local-cli-preset.js';
import type { LocalCommandParsedOutput } from './local-command-options.js';
import { isRecord } from '../shared/is-record.js';

/** Options of {@link parseGeminiCliOutput}. */
export interface ParseGeminiCliOutputOptions {
  /** Gemini CLI prints its JSON error report on stderr. */
  stderr?: string | undefined;
  /** The exit code: Gemini uses its own codes (41 auth, 42 input, 44 sandbox, 52 config, 53 turn limit, 55 untrusted folder) and `status & 0xff` after an API error. */
  exitCode?: number | null | undefined;
  /** The session continuation of this run. */
  continuation?: ExecutionContinuation | undefined;
  /** @default 'gemini-cli' */
  backendId?: string | undefined;
}

const FATAL_EXITS: Record<number, { message: string; status?: 'deferred' | undefined }> = {
  41: { message: 'Gemini CLI has no usable authentication: pass GEMINI_API_KEY in `env` and set security.auth.selectedType in ~/.gemini/settings.json.' },
  42: { message: 'Gemini CLI rejected its input.' },
  44: { message: 'Gemini CLI could not start its sandbox.' },
  52: { message: 'Gemini CLI found an invalid configuration (settings.json).' },
  53: { message: 'Gemini CLI reached its session turn limit.', status: 'deferred' },
  55: { message: 'Gemini CLI refuses to run in an untrusted folder: set `trustWorkspace: true` (--skip-trust) or trust the folder in its settings.' },
};

/**
 * Reads `gemini --output-format json`: `{ session_id, response, stats }` on stdout (or the same
 * assembled from `--output-format stream-json` lines: assistant messages joined, the `result`
 * line's status and stats), or on an API
 * error an `{ session_id, error: { message, code } }` report on stderr (exit code `status & 0xff`).
 * Token counts are summed over `stats.models`. Gemini's fixed exit codes become messages a person
 * can act on. Returns `null` when neither an answer nor an error report is found.
 */
export function parseGeminiCliOutput(stdout: string, options: ParseGeminiCliOutputOptions = {}): LocalCommandParsedOutput | null {
  const report = geminiStreamReport(stdout) ?? firstJsonObject(stdout) ?? firstErrorReport(options.stderr ?? '');
  const sessionId = typeof report?.['session_id'] === 'string' ? report['session_id'] : options.continuation?.continuationId;
  const continuation: ExecutionContinuation | undefined =
    sessionId === undefined ? undefined : { kind: sessionKind(options.backendId ?? 'gemini-cli'), continuationId: sessionId, state: {} };
  const base: LocalCommandParsedOutput = {
    ...(continuation === undefined ? {} : { continuation }),
    ...usageOf(report?.['stats']),
    metadata: { ...(sessionId === undefined ? {} : { sessionId }) },
  };
  const error = isRecord(report?.['error']) ? report['error'] : undefined;
  if (report !== undefined && error === undefined && typeof report['response'] === 'string') {
    return { ...base, status: 'completed', text: report['response'] };
  }
  if (error !== undefined) {
    const raw = typeof error['message'] === 'string' ? error['message'] : 'Gemini CLI reported an error.';
    const status = typeof error['code'] === 'number' && error['code'] >= 100 && error['code'] <= 599 ? error['code'] : statusFromMessage(raw);
    return {
      ...base,
      status: 'failed',
      error: {
        code: 'backend_execution_error',
        message: `Gemini CLI failed: ${innerMessage(raw)}`,
        retryable: status === undefined ? isRetryableMessage(raw) : isRetryableStatus(status),
        ...(status === undefined ? {} : { metadata: { status } }),
      },
    };
  }
  const fatal = options.exitCode === undefined || options.exitCode === null ? undefined : FATAL_EXITS[options.exitCode];
  if (fatal !== undefined) {
    return fatal.status === 'deferred'
      ? { ...base, status: 'deferred', error: { code: 'other', message: fatal.message, retryable: true } }
      : { ...base, status: 'failed', error: { code: 'backend_execution_error', message: fatal.message, retryable: false } };
  }
  return null;
}

function firstErrorReport(stderr: string): Record<string, unknown> | undefined {
  // The report follows a stack trace: try each object that starts a line, keep one with `error`.
  const end = stderr.lastIndexOf('}');
  for (let start = stderr.indexOf('{'); start !== -1 && start < end; start = stderr.indexOf('{', start + 1)) {
    if (start !== 0 && stderr[start - 1] !== '\n') continue;
    try {
      const value: unknown = JSON.parse(stderr.slice(start, end + 1));
      if (isRecord(value) && isRecord(value['error'])) return value;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

function usageOf(stats: unknown): Pick<LocalCommandParsedOutput, 'usage'> {
  if (!isRecord(stats) || !isRecord(stats['models'])) return {};
  let inputTokens = 0;
  let outputTokens = 0;
  for (const model of Object.values(stats['models'])) {
    const tokens = isRecord(model) && isRecord(model['tokens']) ? model['tokens'] : {};
    const value = (key: string) => (typeof tokens[key] === 'number' ? tokens[key] : 0);
    inputTokens += value('prompt');
    outputTokens += value('candidates') + value('thoughts');
  }
  return { usage: { inputTokens, outputTokens } };
}
