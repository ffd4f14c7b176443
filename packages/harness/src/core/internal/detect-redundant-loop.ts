import { stableStringify } from '../continuation/stable-stringify.js';
import type { HarnessToolCall, HarnessToolResult } from '../../shared/types/tools.js';
import type { RunEnding } from './finish-run.js';
import type { RunContext } from './run-context.js';

const REDUNDANT_REPEATS = 3;

/**
 * A loop is the same call with the same answer in consecutive steps. Repeats inside one step
 * (parallel calls, as Gemini makes them) all run and count once.
 */
export function detectRedundantLoop(run: RunContext, call: HarnessToolCall, result: HarnessToolResult): RunEnding | undefined {
  const signature = `${result.toolName}\u0000${stableStringify(call.input)}\u0000${result.output ?? ''}\u0000${
    result.structuredOutput === undefined ? '' : stableStringify(result.structuredOutput)
  }`;
  const inStep = (run.stepResultSignatures ??= new Set());
  if (inStep.has(signature)) return undefined;
  inStep.add(signature);
  const recent = run.recentResultSignatures;
  recent.push(signature);
  if (recent.length > REDUNDANT_REPEATS) recent.shift();
  if (recent.length === REDUNDANT_REPEATS && recent.every((item) => item === signature)) {
    return {
      stopReason: 'redundant_tool_loop',
      metadata: {
        toolName: result.toolName,
        error: {
          code: 'redundant_tool_loop',
          message: `${result.toolName} was called in ${REDUNDANT_REPEATS} steps in a row with the same input and returned the same output.`,
        },
      },
    };
  }
  return undefined;
}
