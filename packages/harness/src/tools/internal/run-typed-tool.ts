import type {
  HarnessToolCall,
  HarnessToolError,
  HarnessToolExecutionContext,
  HarnessToolResult,
} from '../../shared/types/tools.js';
import type { AnyTypedTool, ToolContext, ToolReturn } from '../define-tool.js';
import { ToolExecutionError } from '../tool-execution-error.js';
import { isToolOutput } from '../tool-output.js';
import { parseToolInput, type ParsedToolInput, type ToolInputIssue } from './parse-tool-input.js';
import { describeError } from '../../shared/describe-error.js';
import { plainTextToolResult } from '../../shared/plain-tool-result.js';
import { unwatchAbort, watchAbort } from '../../shared/watch-abort.js';
import { isRecord } from '../../shared/is-record.js';

const MAX_ISSUES = 10;

type Outcome = { kind: 'timeout' } | { kind: 'aborted' } | { kind: 'value'; value: ToolReturn } | { kind: 'error'; error: unknown };

/**
 * Runs one call of a typed tool: validates the input, then runs `execute` under the tool's
 * timeout and the turn's signal. Never rejects; every failure is a structured error result.
 * Not an async function: a synchronous validator and a tool without retries add no frame of
 * their own to the call.
 */
export function runTypedTool(
  tool: AnyTypedTool,
  call: HarnessToolCall,
  context: HarnessToolExecutionContext
): Promise<HarnessToolResult> {
  try {
    return startTypedTool(tool, call, context);
  } catch (error) {
    // What an async function would have done with a throwing getter of `call` or `context`.
    return Promise.reject(error);
  }
}

function startTypedTool(tool: AnyTypedTool, call: HarnessToolCall, context: HarnessToolExecutionContext): Promise<HarnessToolResult> {
  if (context.signal?.aborted) return Promise.resolve(errorResult(call, abortedError(tool)));
  let parsed: ParsedToolInput | Promise<ParsedToolInput>;
  try {
    parsed = parseToolInput(tool.input, call.input);
  } catch (error) {
    return Promise.resolve(validatorFailed(tool, call, error));
  }
  if (parsed instanceof Promise) {
    return parsed.then(
      (checked) => runChecked(tool, call, checked, context),
      (error: unknown) => validatorFailed(tool, call, error)
    );
  }
  return runChecked(tool, call, parsed, context);
}

function validatorFailed(tool: AnyTypedTool, call: HarnessToolCall, error: unknown): HarnessToolResult {
  return errorResult(call, {
    code: 'tool_error',
    message: `The input validator of ${tool.name} failed: ${messageOf(error)}`,
    retryable: false,
  });
}

/** Runs the tool on a checked input: once, or with its retries. */
function runChecked(
  tool: AnyTypedTool,
  call: HarnessToolCall,
  parsed: ParsedToolInput,
  context: HarnessToolExecutionContext
): Promise<HarnessToolResult> {
  if (!parsed.ok) return Promise.resolve(errorResult(call, invalidInputError(tool.name, parsed.issues)));
  const attempts = tool.retry?.attempts ?? 1;
  return attempts > 1 ? runWithRetries(tool, call, parsed.value, context, attempts) : runAttempt(tool, call, parsed.value, context);
}

async function runWithRetries(
  tool: AnyTypedTool,
  call: HarnessToolCall,
  input: unknown,
  context: HarnessToolExecutionContext,
  attempts: number
): Promise<HarnessToolResult> {
  let result = await runAttempt(tool, call, input, context);
  for (let attempt = 2; attempt <= attempts && isRetryable(result); attempt += 1) {
    const delayMs = (tool.retry?.backoffMs ?? 0) * 2 ** (attempt - 2);
    if (context.deadline !== undefined && Date.now() + delayMs >= context.deadline) break;
    if (!(await waitUnlessAborted(delayMs, context.signal))) break;
    const retried = await runAttempt(tool, call, input, context);
    result = { ...retried, metadata: { ...retried.metadata, attempts: attempt } };
  }
  return result;
}

/** Codes a retry cannot change: the same input fails validation again; a stopped turn stays stopped. */
const NOT_RETRIED = new Set(['invalid_input', 'aborted']);

function isRetryable(result: HarnessToolResult): boolean {
  return result.status === 'error' && result.error?.retryable === true && !NOT_RETRIED.has(result.error.code);
}

/** Waits `delayMs`; resolves `false` at once when the turn's signal fires first. */
function waitUnlessAborted(delayMs: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, delayMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** One run of `execute` under the tool's timeout and the turn's signal. */
function runAttempt(
  tool: AnyTypedTool,
  call: HarnessToolCall,
  input: unknown,
  context: HarnessToolExecutionContext
): Promise<HarnessToolResult> {
  const turnSignal = context.signal;
  if (turnSignal?.aborted) return Promise.resolve(errorResult(call, abortedError(tool)));
  // A tool without a time limit of its own gets the turn's signal as it is: no controller and no
  // timer per call. Only a time limit (or a caller without a signal) needs a signal of its own.
  const controller = tool.timeoutMs === undefined && turnSignal !== undefined ? undefined : new AbortController();
  let onTurnAbort: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cleanUp = () => {
    if (timer !== undefined) clearTimeout(timer);
    if (onTurnAbort !== undefined && turnSignal !== undefined) unwatchAbort(turnSignal, onTurnAbort);
  };
  // One promise settled by whichever comes first: the tool, the turn's signal, or the time limit.
  // Not an async function: the attempt holds no suspended frame while the tool runs.
  return new Promise<Outcome>((settle) => {
    onTurnAbort = () => {
      settle({ kind: 'aborted' });
      controller?.abort(turnSignal?.reason);
    };
    if (turnSignal !== undefined) watchAbort(turnSignal, onTurnAbort);
    if (tool.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        settle({ kind: 'timeout' });
        controller?.abort(new ToolExecutionError(`${tool.name} timed out.`, { reason: 'timeout', retryable: true }));
      }, tool.timeoutMs);
    }
    const signal: AbortSignal = controller === undefined ? turnSignal : controller.signal;
    // The loop's context already names the call; copying it (an object spread) was the hottest
    // line of a tool call.
    const toolContext: ToolContext =
      context.callId === call.id && context.toolName === tool.name && context.signal === signal
        ? (context as ToolContext)
        : { ...context, callId: call.id, toolName: tool.name, signal };
    // `execute` runs a microtask later (after every call of a window started); its promise is
    // followed as it is rather than adopted by another (two ticks and a promise fewer).
    Promise.resolve().then(() => {
      const onError = (error: unknown) => settle({ kind: 'error', error });
      try {
        Promise.resolve(tool.execute(input as never, toolContext)).then((value) => settle({ kind: 'value', value }), onError);
      } catch (error) {
        onError(error);
      }
    });
  }).then(
    (outcome) => {
      cleanUp();
      return attemptResult(tool, call, outcome);
    },
    (error: unknown) => {
      cleanUp();
      throw error;
    }
  );
}

function attemptResult(tool: AnyTypedTool, call: HarnessToolCall, outcome: Outcome): HarnessToolResult {
  switch (outcome.kind) {
    case 'value':
      return successResult(tool.name, call, outcome.value);
    case 'error':
      return errorResult(call, thrownError(tool.name, outcome.error));
    case 'timeout':
      return errorResult(call, {
        code: 'timeout',
        message: `${tool.name} did not finish within ${String(tool.timeoutMs)} ms and was stopped.`,
        retryable: true,
      });
    default:
      return errorResult(call, abortedError(tool));
  }
}

function invalidInputError(toolName: string, issues: ToolInputIssue[]): HarnessToolError {
  const shown = issues.slice(0, MAX_ISSUES);
  const fields = [...new Set(shown.map((issue) => issue.path).filter((path) => path !== ''))];
  const list = shown.map((issue) => `${issue.path === '' ? '(input)' : issue.path}: ${issue.message}`).join('; ');
  return {
    code: 'invalid_input',
    message: `Invalid input for ${toolName}: ${list}. Fix ${
      fields.length === 0 ? 'the input' : fields.join(', ')
    } and call the tool again.`,
    retryable: true,
    metadata: { fields, issues: shown },
  };
}

function abortedError(tool: AnyTypedTool): HarnessToolError {
  return { code: 'aborted', message: `${tool.name} was cancelled because the turn was stopped.`, retryable: true };
}

function thrownError(toolName: string, error: unknown): HarnessToolError {
  if (ToolExecutionError.isInstance(error)) {
    return {
      code: error.reason,
      message: error.message,
      retryable: error.retryable,
      ...(error.metadata === undefined ? {} : { metadata: error.metadata }),
    };
  }
  return { code: 'tool_error', message: `${toolName} failed: ${messageOf(error)}`, retryable: false };
}

function successResult(toolName: string, call: HarnessToolCall, value: ToolReturn): HarnessToolResult {
  const base = { callId: call.id, toolName: call.name, status: 'success' as const };
  try {
    if (value === undefined || value === null) return plainTextToolResult(call.id, call.name, '');
    if (typeof value === 'string') return plainTextToolResult(call.id, call.name, value);
    if (isToolOutput(value)) {
      return {
        ...base,
        ...(value.text === undefined ? {} : { output: value.text }),
        ...(value.data === undefined ? {} : { structuredOutput: jsonRecord(value.data) }),
        ...(value.usage === undefined ? {} : { usage: value.usage }),
        ...(value.metadata === undefined ? {} : { metadata: value.metadata }),
      };
    }
    if (Array.isArray(value)) return { ...base, structuredOutput: jsonRecord({ items: value }) };
    if (typeof value === 'object') return { ...base, structuredOutput: jsonRecord(value) };
    return { ...base, output: String(value) };
  } catch (error) {
    return errorResult(call, {
      code: 'tool_error',
      message: `${toolName} returned a value that is not JSON-serialisable: ${messageOf(error)}`,
      retryable: false,
    });
  }
}

/** A JSON round trip, so outputs survive continuations unchanged (dates become strings). */
function jsonRecord(value: object): Record<string, unknown> {
  const copy: unknown = JSON.parse(JSON.stringify(value));
  return isRecord(copy) ? copy : { value: copy };
}

function errorResult(call: HarnessToolCall, error: HarnessToolError): HarnessToolResult {
  return { callId: call.id, toolName: call.name, status: 'error', error };
}

function messageOf(error: unknown): string {
  return describeError(error);
}
