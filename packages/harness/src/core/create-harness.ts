import { runBackendTurn } from './internal/run-backend-turn.js';
import { createContinuationCodec } from './continuation/continuation-codec.js';
import { HarnessConfigError } from './errors/harness-config-error.js';
import { createRun } from './internal/create-run.js';
import { createTurnStream } from './internal/create-turn-stream.js';
import { resumeRun } from './internal/resume-run.js';
import type { HarnessServices } from './internal/run-context.js';
import { runModelLoop } from './internal/run-model-loop.js';
import { continuationSecrets, validateConfig } from './internal/validate-config.js';
import { resolveLimits } from './limits.js';
import { formatIssues } from '../shared/schemas/format-issues.js';
import { turnInputSchema } from './schemas/turn-input-schema.js';
import type { HarnessClock, HarnessConfig } from './types/config.js';
import type { HarnessResult } from './types/result.js';
import type { HarnessRuntime, HarnessStreamEvent } from './types/runtime.js';
import type { HarnessRunOptions, HarnessTurnInput } from '../shared/types/turn-input.js';

const systemClock: HarnessClock = { now: () => Date.now() };

/**
 * Creates a harness that runs bounded turns with a model adapter (the harness drives the loop)
 * or an execution backend (the backend drives it; the harness bounds and normalises it).
 *
 * @throws HarnessConfigError when the config is invalid.
 * @example
 * ```ts
 * const harness = createHarness({ model, tools, limits: { maxIterations: 4 } });
 * const result = await harness.runTurn(input);
 * if (result.outcome === 'completed') console.log(result.assistantMessage?.text);
 * ```
 */
export function createHarness(config: HarnessConfig): HarnessRuntime {
  validateConfig(config);
  const clock = config.clock ?? systemClock;
  const generateId = config.generateId ?? (() => crypto.randomUUID());
  const limits = resolveLimits(config.limits);
  const services: HarnessServices = {
    model: config.model,
    tools: config.tools,
    approvals: config.approvals,
    hooks: config.hooks ?? {},
    clock,
    limits,
    codec: createContinuationCodec({
      secrets: continuationSecrets(config),
      unsigned: config.unsignedContinuations,
      ttlMs: config.continuationTtlMs,
      maxBytes: limits.maxContinuationBytes,
      clock,
      generateId,
    }),
    generateId,
  };
  const { backend, trace, requirements, resumeGuard } = config;

  const start = (
    input: HarnessTurnInput,
    options: HarnessRunOptions & { onStreamEvent?: (event: HarnessStreamEvent) => void },
  ): Promise<HarnessResult> => {
    const run = createRun(services, trace, checkInput(input), options);
    return backend === undefined ? runModelLoop(run) : runBackendTurn(run, backend, { requirements });
  };

  return {
    runTurn(input, options = {}) {
      try {
        return start(input, { signal: options.signal, steering: options.steering });
      } catch (error) {
        return Promise.reject(error);
      }
    },
    streamTurn(input, options = {}) {
      const checked = checkInput(input);
      return createTurnStream(options.signal, (onStreamEvent, signal) => start(checked, { signal, onStreamEvent, steering: options.steering }));
    },
    resumeTurn(continuation, resolution, options = {}) {
      return resumeRun({ services, trace, backend, requirements, resumeGuard }, continuation, resolution, options);
    },
    streamResumeTurn(continuation, resolution, options = {}) {
      return createTurnStream(options.signal, (onStreamEvent, signal) =>
        resumeRun({ services, trace, backend, requirements, resumeGuard }, continuation, resolution, { ...options, signal, onStreamEvent }),
      );
    },
  };
}

function checkInput(input: HarnessTurnInput): HarnessTurnInput {
  const parsed = turnInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new HarnessConfigError(`Invalid turn input: ${formatIssues(parsed.error.issues, 'input')}.`, { field: 'input' });
  }
  return parsed.data as HarnessTurnInput;
}
