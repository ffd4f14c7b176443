import type { ExecutionAdapter, ExecutionNegotiation, ExecutionResult } from '../execution/types.js';
import { describeError } from '../shared/describe-error.js';
import type { CliRunInput, CliRunner } from './cli-runner.js';

/** Options of {@link createAdapterRunner}. */
export interface AdapterRunnerOptions {
  /** The runner's id in logs and metadata. @default the adapter's `backendId` */
  id?: string;
}

/**
 * A runner that runs each request with an `ExecutionAdapter` — any backend the harness can use
 * (a local CLI preset, `LocalCommandExecutionAdapter`, an HTTP backend) becomes something the
 * worker bridge can run. Like the harness, it asks `negotiate` first: a request the adapter
 * cannot serve is answered `unsupported` without running it, and warnings are reported as the
 * result's `degradation`. The run's signal (and, when the orchestrator streams, the event callback)
 * is passed to `execute`; a throwing adapter becomes a `failed` result.
 *
 * @example
 * const runner = createAdapterRunner(new CodexExecutionAdapter({ sandbox: 'read-only' }));
 */
export function createAdapterRunner(adapter: ExecutionAdapter, options: AdapterRunnerOptions = {}): CliRunner {
  const id = options.id ?? adapter.backendId;
  const failed = (message: string): ExecutionResult => ({
    backendId: adapter.backendId,
    status: 'failed',
    error: { code: 'backend_execution_error', message: `The ${id} runner failed: ${message}`, retryable: false },
  });
  return {
    id,
    async run(input: CliRunInput): Promise<ExecutionResult> {
      let negotiation: ExecutionNegotiation;
      try {
        negotiation = adapter.negotiate(input.request);
      } catch (error) {
        return failed(`negotiate threw: ${describeError(error)}`);
      }
      const reasons = Array.isArray(negotiation?.reasons) ? negotiation.reasons : [];
      if (negotiation?.supported !== true) {
        const blocking = reasons.filter((reason) => reason.severity === 'blocking').map((reason) => reason.message);
        return {
          backendId: adapter.backendId,
          status: 'unsupported',
          error: { code: 'unsupported_capability', message: blocking.join(' ') || `The ${id} runner cannot serve this request.`, retryable: false },
          ...(reasons.length === 0 ? {} : { degradation: reasons }),
        };
      }
      let result: ExecutionResult;
      try {
        result = await adapter.execute(input.request, { signal: input.signal, ...(input.onEvent === undefined ? {} : { onEvent: input.onEvent }) });
      } catch (error) {
        return failed(describeError(error));
      }
      const warnings = reasons.filter((reason) => reason.severity !== 'blocking');
      return warnings.length === 0 || typeof result !== 'object' || result === null || result.degradation !== undefined
        ? result
        : { ...result, degradation: warnings };
    },
  };
}
