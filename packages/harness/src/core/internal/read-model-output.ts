import { describeError } from '../../shared/describe-error.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { modelOutputSchema } from '../schemas/model-output-schema.js';
import type { HarnessInvalidOutput, HarnessModelOutput } from '../types/model.js';
import { detachValue } from '../continuation/detach-value.js';

const MAX_REASON_LENGTH = 1_000;

/**
 * Checks what a model adapter returned and detaches it: a usable output becomes a plain-JSON copy
 * (so tool call inputs cannot change or run code later), anything else an `invalid` /
 * `schema_mismatch` output saying why. A tool step asking for more calls than `stepLimit.maxCalls`
 * is refused before any call is read (code `too_many_tool_calls`), so its cost is bounded by the
 * limits, not by the step. Never throws, whatever the adapter returned (throwing getters, Proxies,
 * cycles, BigInts).
 */
export function readModelOutput(raw: unknown, stepLimit: StepCallLimit): HarnessModelOutput {
  let problem: string;
  try {
    const parsed = modelOutputSchema.safeParse(oversizedStep(raw, stepLimit) ?? raw);
    if (parsed.success) {
      const copied = detachValue(parsed.data as HarnessModelOutput);
      if (copied.ok) return copied.value;
      problem = copied.reason;
    } else {
      problem = formatIssues(parsed.error.issues);
    }
  } catch (error) {
    problem = `it could not be read (${describeError(error, 200)})`;
  }
  return unusableOutput(problem);
}

function unusableOutput(problem: string): HarnessInvalidOutput {
  const detail = problem.length > MAX_REASON_LENGTH ? `${problem.slice(0, MAX_REASON_LENGTH)}…` : problem;
  return { type: 'invalid', kind: 'schema_mismatch', reason: `The model adapter returned an unusable output: ${detail}.` };
}

/** How many calls one step may ask for, and what to tell a model that asks for more. */
export interface StepCallLimit {
  /** Calls the run can still make plus calls a continuation could carry to a resume. */
  maxCalls: number;
  /** `limits.maxToolCalls`, the size of step to suggest. */
  maxToolCalls: number;
}

/**
 * For a tool step with more calls than `limit.maxCalls`: the invalid output it becomes, keeping the
 * step's usage and metadata (checked like any output's). Reads only `type`, `calls.length`, `usage`
 * and `metadata`, never a call.
 */
function oversizedStep(raw: unknown, limit: StepCallLimit): Record<string, unknown> | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const step = raw as { type?: unknown; calls?: unknown; usage?: unknown; metadata?: unknown };
  if (step.type !== 'tool_request') return undefined;
  const calls = step.calls;
  if (!Array.isArray(calls) || calls.length <= limit.maxCalls) return undefined;
  const { usage, metadata } = step;
  return {
    type: 'invalid',
    kind: 'schema_mismatch',
    code: 'too_many_tool_calls',
    retryable: true,
    reason:
      `The model asked for ${String(calls.length)} tool calls in one step, more than this turn can run (limits.maxToolCalls) ` +
      `or carry to a resume (limits.maxContinuationBytes), so none of them ran. Ask for at most ${String(limit.maxToolCalls)} calls in a step.`,
    ...(usage === undefined ? {} : { usage }),
    ...(metadata === undefined ? {} : { metadata }),
  };
}
