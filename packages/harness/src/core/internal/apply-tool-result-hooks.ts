import type { HarnessToolCall, HarnessToolResult } from '../../shared/types/tools.js';
import type { RunEnding } from './finish-run.js';
import { executionState, transcriptIteration, type RunContext } from './run-context.js';
import { detachValue } from '../continuation/detach-value.js';
import { raceSignal } from './turn-signal.js';
import { detectRedundantLoop } from './detect-redundant-loop.js';

type Hooks = RunContext['services']['hooks'];

/**
 * Runs the result hooks (`onToolError`, `clarifyOnToolResult`) on a recorded result and decides
 * whether the run ends: a clarification, an unrecoverable error, or a redundant loop. Without a
 * hook to run it decides at once, without a promise.
 */
export function applyHooks(
  run: RunContext,
  call: HarnessToolCall,
  result: HarnessToolResult,
): RunEnding | undefined | Promise<RunEnding | undefined> {
  const { hooks } = run.services;
  if (result.status === 'error') run.recentResultSignatures.length = 0;
  const onToolError = result.status === 'error' ? hooks.onToolError : undefined;
  const clarify = hooks.clarifyOnToolResult;
  if (onToolError === undefined && clarify === undefined) return decide(run, call, result, undefined);
  return runHooks(run, call, result, onToolError, clarify);
}

async function runHooks(
  run: RunContext,
  call: HarnessToolCall,
  result: HarnessToolResult,
  onToolError: Hooks['onToolError'],
  clarify: Hooks['clarifyOnToolResult'],
): Promise<RunEnding | undefined> {
  const signal = run.turnSignal.signal;
  let decision: void | 'continue' | 'fail' = undefined;
  if (onToolError !== undefined) {
    run.phase = 'hooks.onToolError';
    decision = await raceSignal(() => onToolError(result, executionState(run)), signal);
  }
  if (clarify !== undefined) {
    run.phase = 'hooks.clarifyOnToolResult';
    const clarification: unknown = await raceSignal(() => clarify(result, executionState(run)), signal);
    // Read once, as plain data: a hook's value may carry getters or Proxies.
    const copied = detachValue(clarification ?? null);
    if (!copied.ok) throw new Error(`clarifyOnToolResult returned an unusable value: ${copied.reason}.`);
    const fields = typeof copied.value === 'object' && copied.value !== null ? (copied.value as Record<string, unknown>) : {};
    const question = typeof fields.question === 'string' ? fields.question.trim() : '';
    if (question !== '') {
      run.transcript.push({ type: 'clarification_request', iteration: transcriptIteration(run), question });
      run.trace.emit({ type: 'clarification_requested', question });
      return {
        stopReason: 'clarification_required',
        assistantText: question,
        pause: { question },
        metadata: {
          clarification: {
            callId: result.callId,
            toolName: result.toolName,
            reason: typeof fields.reason === 'string' ? fields.reason : undefined,
          },
        },
      };
    }
  }
  return decide(run, call, result, decision);
}

/** After the hooks: an unrecoverable error ends the run, a success may be a redundant loop. */
function decide(run: RunContext, call: HarnessToolCall, result: HarnessToolResult, decision: void | 'continue' | 'fail'): RunEnding | undefined {
  if (result.status === 'error') {
    const fatal = decision === 'fail' || (decision !== 'continue' && result.error?.retryable === false);
    if (!fatal) return undefined;
    return {
      stopReason: 'tool_error_unrecoverable',
      metadata: {
        toolName: result.toolName,
        error: {
          code: result.error?.code ?? 'tool_error',
          message: result.error?.message ?? 'The tool failed.',
          source: `tool:${result.toolName}`,
          retryable: false,
        },
      },
    };
  }
  return detectRedundantLoop(run, call, result);
}
