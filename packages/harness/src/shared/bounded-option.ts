import { HarnessConfigError } from './errors/harness-config-error.js';

/** Reads an optional integer option within min..max (min defaults to 1). */
export function boundedOption(value: number | undefined, fallback: number, max: number, field: string, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new HarnessConfigError(`${field} must be an integer from ${String(min)} to ${String(max)}.`, { field });
  }
  return value;
}
