import { capAnswer } from '../execution/answer-cap.js';
import type {
  ExecutionContinuation,
  ExecutionError,
  ExecutionNegotiationReason,
  ExecutionResult,
} from '../execution/types.js';
import type { LocalCommandInvocationContext, LocalCommandParsedOutput } from './local-command-options.js';
import type { ProcessOutcome } from '../process/run-process.js';
import type { ResolvedLocalCommandConfig } from './internal/validate-local-command-config.js';
import { describeError } from '../shared/describe-error.js';

const PREVIEW_CHARS = 500;
const STDERR_TAIL_CHARS = 2_000;

/** The first `max` characters, marked when cut. */
export function preview(text: string, max = PREVIEW_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The last `max` characters, marked when cut. */
export function tail(text: string, max = STDERR_TAIL_CHARS): string {
  return text.length <= max ? text : `…${text.slice(-max)}`;
}

/** Everything `toLocalResult` needs about one run. */
export interface LocalRun {
  config: ResolvedLocalCommandConfig;
  context: LocalCommandInvocationContext;
  degradation: ExecutionNegotiationReason[];
  /** The effective timeout of this run, in milliseconds. */
  timeoutMs: number;
  /** Set when the process could not start because `cwd` does not exist. */
  cwdMissing?: boolean;
}

/** Builds a result from parts, adding trace, degradation and the continuation to metadata. */
export function localResult(
  run: LocalRun,
  outcome: Pick<ProcessOutcome, 'startedAt' | 'finishedAt'>,
  parts: {
    status: ExecutionResult['status'];
    output?: LocalCommandParsedOutput;
    error?: ExecutionError;
    continuation?: ExecutionContinuation | undefined;
    metadata?: Record<string, unknown>;
  },
): ExecutionResult {
  const continuation = parts.output?.continuation ?? parts.continuation;
  const answer = typeof parts.output?.text === 'string' ? capAnswer(parts.output.text) : undefined;
  const text = answer === undefined ? parts.output?.text : answer.text;
  const structured = parts.output?.structured;
  const at = (time: number) => new Date(time).toISOString();
  const ok = parts.status !== 'failed' && parts.status !== 'unsupported';
  const metadata = {
    ...parts.metadata,
    ...parts.output?.metadata,
    ...(answer?.truncated === true ? { answerTruncated: true } : {}),
    durationMs: outcome.finishedAt - outcome.startedAt,
    ...(continuation === undefined ? {} : { continuation }),
  };
  return {
    backendId: run.config.backendId,
    status: parts.status,
    ...(text === undefined && structured === undefined
      ? {}
      : { output: { ...(text === undefined ? {} : { text }), ...(structured === undefined ? {} : { structured }) } }),
    ...(continuation === undefined ? {} : { continuation }),
    ...(parts.error === undefined ? {} : { error: parts.error }),
    ...(parts.output?.usage === undefined ? {} : { usage: parts.output.usage }),
    trace: {
      summary: { startedAt: at(outcome.startedAt), completedAt: at(outcome.finishedAt), stepCount: 1, degraded: run.degradation.length > 0 },
      events: [
        { type: 'model_started', at: at(outcome.startedAt) },
        ok
          ? { type: 'model_completed', at: at(outcome.finishedAt) }
          : { type: 'failure', at: at(outcome.finishedAt), data: { code: parts.error?.code ?? 'backend_execution_error' } },
      ],
    },
    ...(run.degradation.length === 0 ? {} : { degradation: run.degradation }),
    metadata,
  };
}

/** A `failed` result for a run that never reached the process (bad arguments, no Node.js). */
export function failedBeforeStart(run: LocalRun, message: string, retryable: boolean, metadata: Record<string, unknown> = {}): ExecutionResult {
  const now = Date.now();
  return localResult(run, { startedAt: now, finishedAt: now }, {
    status: 'failed',
    error: { code: 'backend_execution_error', message, retryable },
    continuation: run.context.continuation,
    metadata,
  });
}

/** Maps how the process ended, and what `parseOutput` made of it, onto an `ExecutionResult`. */
export function toLocalResult(run: LocalRun, outcome: ProcessOutcome, parse: () => LocalCommandParsedOutput | null): ExecutionResult {
  const { config } = run;
  const label = config.commandLabel;
  const base = { continuation: run.context.continuation };
  const failed = (code: ExecutionError['code'], message: string, retryable: boolean, metadata: Record<string, unknown> = {}) =>
    localResult(run, outcome, { ...base, status: 'failed', error: { code, message, retryable }, metadata });
  const stderrTail = outcome.stderr.trim() === '' ? {} : { stderrTail: tail(outcome.stderr) };
  const ending = outcome.ending;

  switch (ending.kind) {
    case 'spawn_failed': {
      const code = ending.error.code;
      if (code === 'ENOENT') {
        const message = run.cwdMissing
          ? `${label} could not start: the working directory ${config.cwd} does not exist.`
          : `${label} could not start: \`${config.command}\` was not found. Install it or set \`command\` to its full path.`;
        return failed('backend_execution_error', message, false, { errorCode: 'HARNESS_ERR_BACKEND_UNAVAILABLE', systemError: code });
      }
      if (code === 'EACCES' || code === 'ENOEXEC' || code === 'EISDIR') {
        return failed('backend_execution_error', `${label} could not start: \`${config.command}\` is not an executable program (${code}).`, false, {
          errorCode: 'HARNESS_ERR_BACKEND_UNAVAILABLE',
          systemError: code,
        });
      }
      const retryable = code === 'EAGAIN' || code === 'EMFILE' || code === 'ENFILE' || code === 'ENOMEM';
      return failed('backend_execution_error', `${label} could not start: ${ending.error.message}`, retryable, code === undefined ? {} : { systemError: code });
    }
    case 'timed_out':
      return failed('timeout', `${label} did not finish within ${run.timeoutMs} ms and was stopped.`, true, stderrTail);
    case 'aborted':
      return ending.reason === 'timeout'
        ? failed('timeout', `${label} was stopped because the turn ran out of time.`, true, stderrTail)
        : failed('backend_execution_error', `${label} was stopped because the turn was cancelled.`, true, { cancelled: true });
    case 'output_limit':
      return failed(
        'invalid_backend_output',
        `${label} wrote more than ${config.maxOutputBytes} bytes to ${ending.stream} and was stopped.`,
        false,
        { outputLimitExceeded: ending.stream, maxOutputBytes: config.maxOutputBytes, stdoutPreview: preview(outcome.stdout) },
      );
    case 'exited':
      break;
  }

  const exitMetadata = { exitCode: ending.exitCode, ...(ending.exitSignal === null ? {} : { exitSignal: ending.exitSignal }) };
  let parsed: LocalCommandParsedOutput | null = null;
  let parseError: string | undefined;
  try {
    parsed = parse();
  } catch (error) {
    parseError = describeError(error);
  }
  const cleanExit = ending.exitCode === 0 && ending.exitSignal === null;
  if (parsed !== null && typeof parsed === 'object' && (cleanExit || parsed.status !== undefined)) {
    const status = parsed.status ?? 'completed';
    const error =
      status === 'failed' || status === 'unsupported'
        ? (parsed.error ?? { code: 'backend_execution_error', message: `${label} reported a failure.`, retryable: false })
        : parsed.error;
    return localResult(run, outcome, {
      ...base,
      status,
      output: parsed,
      ...(error === undefined ? {} : { error }),
      metadata: { ...exitMetadata, ...(status === 'failed' ? stderrTail : {}) },
    });
  }
  if (cleanExit) {
    return failed(
      'invalid_backend_output',
      `${label} printed output that could not be read${parseError === undefined ? '' : ` (${parseError})`}.`,
      false,
      { ...exitMetadata, stdoutBytes: outcome.stdoutBytes, stdoutPreview: preview(outcome.stdout), ...stderrTail },
    );
  }
  const lastLine = outcome.stderr.trim().split('\n').at(-1)?.trim();
  const how = ending.exitSignal === null ? `exited with code ${ending.exitCode}` : `was killed by ${ending.exitSignal}`;
  const exit = { exitCode: ending.exitCode, exitSignal: ending.exitSignal, stderr: outcome.stderr };
  const retryable = config.isRetryableExit === undefined ? ending.exitSignal !== null : safeRetryable(config.isRetryableExit, exit);
  return failed('backend_execution_error', `${label} ${how}${lastLine ? `: ${preview(lastLine, 300)}` : '.'}`, retryable, {
    ...exitMetadata,
    ...stderrTail,
  });
}

function safeRetryable<T>(decide: (value: T) => boolean, value: T): boolean {
  try {
    return decide(value) === true;
  } catch {
    return false;
  }
}
