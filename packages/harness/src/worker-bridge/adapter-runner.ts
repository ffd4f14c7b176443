import type { ExecutionAdapter, ExecutionResult } from '../execution/types.js';
import { describeError } from '../relay/internal/describe-error.js';
import type { CliRunInput, CliRunner } from './cli-runner.js';

/** Options of {@link createAdapterRunner}. */
export interface AdapterRunnerOptions {
  /** The runner's id in logs and metadata. @default the adapter's `backendId` */
  id?: string | undefined;
}

/**
 * A runner that runs each request with an `ExecutionAdapter` — any backend the harness can use
 * (a local CLI preset, `LocalCommandExecutionAdapter`, an HTTP backend) becomes something the
 * worker bridge can run. The run's signal is passed to `execute`; a throwing adapter becomes a
 * `failed` result.
 *
 * @example
 * const runner = createAdapterRunner(new CodexExecutionAdapter({ sandbox: 'read-only' }));
 */
export function createAdapterRunner(adapter: ExecutionAdapter, options: AdapterRunnerOptions = {}): CliRunner {
  const id = options.id ?? adapter.backendId;
  return {
    id,
    async run(input: CliRunInput): Promise<ExecutionResult> {
      try {
        return await adapter.execute(input.request, { signal: input.signal });
      } catch (error) {
        return {
          backendId: adapter.backendId,
          status: 'failed',
          error: { code: 'backend_execution_error', message: `The ${id} runner failed: ${describeError(error)}`, retryable: false },
        };
      }
    },
  };
}
