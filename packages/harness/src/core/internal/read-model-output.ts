import { describeError } from '../../shared/describe-error.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { modelOutputSchema } from '../schemas/model-output-schema.js';
import type { HarnessInvalidOutput, HarnessModelOutput } from '../types/model.js';
import { detachValue } from './detach-value.js';

const MAX_REASON_LENGTH = 1_000;

/**
 * Checks what a model adapter returned and detaches it: a usable output becomes a plain-JSON copy
 * (so tool call inputs cannot change or run code later), anything else an `invalid` /
 * `schema_mismatch` output saying why. Never throws, whatever the adapter returned (throwing
 * getters, Proxies, cycles, BigInts).
 */
export function readModelOutput(raw: unknown): HarnessModelOutput {
  let problem: string;
  try {
    const parsed = modelOutputSchema.safeParse(raw);
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
