import type { ExecutionAdapter, ExecutionRequest } from '../execution/types.js';
import { HarnessConfigError } from './errors/harness-config-error.js';
import type { RunContext } from './internal/run-context.js';
import type { HarnessResult } from './types/result.js';

/** Where a backend run starts: a fresh turn, or a resume with the request to send. */
export interface BackendRunStart {
  request?: ExecutionRequest;
}

/** Runs one backend turn under the harness's limits; what `defineExecutionAdapter` attaches to an adapter. */
export type BackendRunner = (
  run: RunContext,
  backend: ExecutionAdapter,
  options: { requirements?: ExecutionRequest['requirements']; start?: BackendRunStart },
) => Promise<HarnessResult>;

/**
 * The key under which an adapter carries its runner. `Symbol.for`, so an adapter made by another copy of
 * the package (its CommonJS build beside the ESM one) is still recognised.
 */
export const BACKEND_RUNNER: unique symbol = /* @__PURE__ */ Symbol.for('@agent-assistant/harness.backend-runner') as never;

/**
 * The runner an adapter carries, or `undefined` for an adapter made without `defineExecutionAdapter` (or one
 * whose property read throws). Only programs that make a backend reach the runner's code.
 */
export function backendRunnerOf(backend: object): BackendRunner | undefined {
  try {
    const runner: unknown = (backend as { [BACKEND_RUNNER]?: unknown })[BACKEND_RUNNER];
    return typeof runner === 'function' ? (runner as BackendRunner) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The runner a backend carries; a backend made without `defineExecutionAdapter` is refused when it
 * is configured, not mid-turn.
 * @throws HarnessConfigError on `field`, naming the fix.
 */
export function requireBackendRunner(backend: object, field: string): BackendRunner {
  const runner = backendRunnerOf(backend);
  if (runner === undefined) {
    throw new HarnessConfigError(
      `${field} was not made by defineExecutionAdapter: wrap an adapter you wrote yourself, defineExecutionAdapter(adapter) (the adapters of this package are made that way already).`,
      { field },
    );
  }
  return runner;
}
