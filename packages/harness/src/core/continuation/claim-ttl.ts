import { HarnessConfigError } from '../errors/harness-config-error.js';

/** How long a claim lives when its continuation has no expiry: 7 days. */
const DEFAULT_CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The longest `claimTtlMs`: 10 years. */
const MAX_CLAIM_TTL_MS = 10 * 365 * 24 * 60 * 60 * 1000;

/**
 * Reads a `claimTtlMs` option: a whole number of milliseconds from 1 to 10 years.
 * @throws HarnessConfigError for anything else.
 */
export function readClaimTtlMs(value: unknown, owner: string): number {
  if (value === undefined) return DEFAULT_CLAIM_TTL_MS;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_CLAIM_TTL_MS) {
    throw new HarnessConfigError(`${owner}: claimTtlMs must be a whole number of milliseconds from 1 to ${String(MAX_CLAIM_TTL_MS)}.`, {
      field: 'claimTtlMs',
    });
  }
  return value;
}
