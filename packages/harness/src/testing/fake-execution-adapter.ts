import { HarnessError } from '../core/errors/harness-error.js';
import { negotiateCapabilities } from '../execution/negotiate-capabilities.js';
import type {
  ExecutionAdapter,
  ExecutionCapabilities,
  ExecutionOptions,
  ExecutionRequest,
  ExecutionResult,
} from '../execution/types.js';
import { defineExecutionAdapter } from '../core/define-execution-adapter.js';

/** A scripted backend answer: a result (without `backendId`), or a function producing one. */
export type FakeExecutionStep =
  | Omit<ExecutionResult, 'backendId'>
  | ((request: ExecutionRequest, options: ExecutionOptions) => Omit<ExecutionResult, 'backendId'> | Promise<Omit<ExecutionResult, 'backendId'>>);

/** Options of `createFakeExecutionAdapter`. */
export interface FakeExecutionAdapterOptions {
  /** @default 'fake-backend' */
  backendId?: string | undefined;
  /** @default a backend without tools, continuation or approvals */
  capabilities?: Partial<ExecutionCapabilities> | undefined;
  /** One answer per `execute` call, in order. */
  steps: FakeExecutionStep[];
}

/** An in-memory `ExecutionAdapter` that records requests. */
export interface FakeExecutionAdapter extends ExecutionAdapter {
  readonly requests: ExecutionRequest[];
}

/** Creates an in-memory backend for tests of backend-driven turns. */
export function createFakeExecutionAdapter(options: FakeExecutionAdapterOptions): FakeExecutionAdapter {
  const backendId = options.backendId ?? 'fake-backend';
  const capabilities: ExecutionCapabilities = {
    toolUse: 'none',
    structuredToolCalls: false,
    continuationSupport: 'none',
    approvalInterrupts: 'none',
    traceDepth: 'minimal',
    attachments: false,
    ...options.capabilities,
  };
  const requests: ExecutionRequest[] = [];
  return defineExecutionAdapter({
    backendId,
    requests,
    describeCapabilities: () => ({ ...capabilities }),
    negotiate: (request) => negotiateCapabilities(capabilities, request),
    async execute(request, executeOptions = {}) {
      requests.push(request);
      const step = options.steps[requests.length - 1];
      if (step === undefined) {
        throw new HarnessError('HARNESS_ERR_FAKE_NOT_SCRIPTED', `The fake backend has only ${options.steps.length} steps.`);
      }
      const result = typeof step === 'function' ? await step(request, executeOptions) : step;
      return { backendId, ...result };
    },
  });
}
