import { HarnessConfigError } from '../../core/errors/harness-config-error.js';

/** Reads an optional integer option within 1..max. */
export function boundedOption(value: number | undefined, fallback: number, max: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new HarnessConfigError(`${field} must be an integer from 1 to ${String(max)}.`, { field });
  }
  return value;
}
