import { HarnessConfigError } from '../../core/errors/harness-config-error.js';

/**
 * Checks an optional plain-object option (such as `extraBody`); `undefined` becomes `{}`.
 * @throws HarnessConfigError naming `field` for anything but an object that is not an array.
 */
export function optionalPlainObject(value: unknown, field: string): Readonly<Record<string, unknown>> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HarnessConfigError(`${field} must be an object.`, { field });
  return value as Readonly<Record<string, unknown>>;
}
