import type { ExecutionAdapter } from '../execution/types.js';
import { BACKEND_RUNNER } from './backend-runner.js';
import { HarnessConfigError } from './errors/harness-config-error.js';
import { runBackendTurn } from './internal/run-backend-turn.js';

const METHODS = ['describeCapabilities', 'negotiate', 'execute'] as const;

/**
 * Makes an object an execution backend `createHarness({ backend })` runs: checks its shape and attaches
 * the backend turn runner to it (a hidden, non-enumerable property), so that only programs that make a
 * backend bundle the runner. Every adapter of this package is made this way already; call it for an
 * adapter you write yourself (a plain object or an instance of your own class). It returns the same
 * object, and calling it twice is harmless.
 *
 * @throws HarnessConfigError when the value is not an `ExecutionAdapter` (a `backendId` string and the
 *   three methods) or cannot take a property (frozen or sealed: call it before freezing).
 * @example
 * ```ts
 * const echo = defineExecutionAdapter({
 *   backendId: 'echo',
 *   describeCapabilities: () => ({ ...capabilities }),
 *   negotiate: (request) => negotiateCapabilities(capabilities, request),
 *   async execute(request) {
 *     return { backendId: 'echo', status: 'completed', output: { text: request.message.text } };
 *   },
 * });
 * const harness = createHarness({ backend: echo });
 * ```
 */
export function defineExecutionAdapter<T extends ExecutionAdapter>(adapter: T): T {
  if (typeof adapter !== 'object' || adapter === null) {
    throw new HarnessConfigError('defineExecutionAdapter needs an object (an ExecutionAdapter).', { field: 'backend' });
  }
  try {
    if (typeof adapter.backendId !== 'string' || adapter.backendId === '') {
      throw new HarnessConfigError('backend.backendId must be a non-empty string.', { field: 'backend.backendId' });
    }
    for (const method of METHODS) {
      if (typeof adapter[method] !== 'function') {
        throw new HarnessConfigError(`backend.${method} must be a function.`, { field: `backend.${method}` });
      }
    }
    if (!Object.hasOwn(adapter, BACKEND_RUNNER)) {
      Object.defineProperty(adapter, BACKEND_RUNNER, { value: runBackendTurn, enumerable: false, writable: false, configurable: false });
    }
  } catch (error) {
    if (error instanceof HarnessConfigError) throw error;
    throw new HarnessConfigError('defineExecutionAdapter could not attach the backend runner: the adapter is frozen, sealed or a Proxy that refuses it.', {
      field: 'backend',
    });
  }
  return adapter;
}
