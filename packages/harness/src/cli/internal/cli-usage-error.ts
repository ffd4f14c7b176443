import { HarnessConfigError } from '../../core/errors/harness-config-error.js';

/** A mistake in how the command was called: exit code 2, the message says how to fix it. */
export function usageError(message: string, field = 'argv'): HarnessConfigError {
  return new HarnessConfigError(message, { field });
}
