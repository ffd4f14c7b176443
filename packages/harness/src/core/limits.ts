import { HarnessConfigError } from './errors/harness-config-error.js';
import type { HarnessLimits } from './types/config.js';

/** Limits with every default applied. `budgetLimit` stays optional: absent means no budget. */
export type ResolvedHarnessLimits = Required<Omit<HarnessLimits, 'budgetLimit'>> &
  Pick<HarnessLimits, 'budgetLimit'>;

/** The default limits of a run. Documented defaults quote this object. */
export const DEFAULT_TURN_LIMITS: Readonly<ResolvedHarnessLimits> = /* @__PURE__ */ Object.freeze({
  maxIterations: 6,
  maxToolCalls: 8,
  maxElapsedMs: 30_000,
  maxConsecutiveInvalidModelOutputs: 2,
  budgetLimit: undefined,
  toolConcurrency: 1,
  maxContinuationBytes: 262_144,
  maxAttachments: 16,
  maxAttachmentBytes: 20_971_520,
  maxHistoryMessages: 200,
});

const positiveIntegerFields = [
  'maxIterations',
  'maxToolCalls',
  'maxElapsedMs',
  'toolConcurrency',
  'maxContinuationBytes',
  'maxAttachmentBytes',
  'maxHistoryMessages',
] as const;

/** Applies defaults and checks every field; throws `HarnessConfigError` naming the bad one. */
export function resolveLimits(limits: HarnessLimits | undefined): ResolvedHarnessLimits {
  if (limits !== undefined && (typeof limits !== 'object' || limits === null)) {
    throw new HarnessConfigError('limits must be an object.', { field: 'limits' });
  }
  const resolved: ResolvedHarnessLimits = { ...DEFAULT_TURN_LIMITS, ...stripUndefined(limits ?? {}) };
  for (const field of positiveIntegerFields) {
    const value = resolved[field];
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new HarnessConfigError(`limits.${field} must be a positive integer; got ${String(value)}.`, {
        field: `limits.${field}`,
      });
    }
  }
  const invalidOutputs = resolved.maxConsecutiveInvalidModelOutputs;
  if (!Number.isSafeInteger(invalidOutputs) || invalidOutputs < 0) {
    throw new HarnessConfigError(
      `limits.maxConsecutiveInvalidModelOutputs must be an integer of 0 or more; got ${String(invalidOutputs)}.`,
      { field: 'limits.maxConsecutiveInvalidModelOutputs' },
    );
  }
  const attachments = resolved.maxAttachments;
  if (!Number.isSafeInteger(attachments) || attachments < 0) {
    throw new HarnessConfigError(`limits.maxAttachments must be an integer of 0 or more; got ${String(attachments)}.`, {
      field: 'limits.maxAttachments',
    });
  }
  const budget = resolved.budgetLimit;
  if (budget !== undefined && (typeof budget !== 'number' || !Number.isFinite(budget) || budget < 0)) {
    throw new HarnessConfigError(`limits.budgetLimit must be a finite number of 0 or more; got ${String(budget)}.`, {
      field: 'limits.budgetLimit',
    });
  }
  return resolved;
}

function stripUndefined(limits: HarnessLimits): HarnessLimits {
  // `Object.fromEntries` defines own keys, so a `__proto__` key in a parsed config stays data.
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) as HarnessLimits;
}
