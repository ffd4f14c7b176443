import { requireBackendRunner } from './backend-runner.js';
import { detachValue } from './continuation/detach-value.js';
import { isRecord } from '../shared/is-record.js';
import { createContinuationCodec } from './continuation/continuation-codec.js';
import { HarnessConfigError } from './errors/harness-config-error.js';
import { createRun } from './internal/create-run.js';
import { createTurnStream } from './internal/create-turn-stream.js';
import { resumeRun } from './internal/resume-run.js';
import type { HarnessServices } from './internal/run-context.js';
import { runModelLoop } from './internal/run-model-loop.js';
import { continuationSecrets, validateConfig } from './internal/validate-config.js';
import { resolveLimits } from './limits.js';
import { compactStandalone } from './compaction/compact-standalone.js';
import { resolveCompaction } from './compaction/resolve-compaction.js';
import { formatIssues } from '../shared/schemas/format-issues.js';
import { turnInputSchema } from './schemas/turn-input-schema.js';
import { resolveOutput, type ResolvedOutput } from './output/resolve-output.js';
import type { HarnessOutputSchema, InferHarnessOutput } from '../shared/types/schema.js';
import type { HarnessClock, HarnessConfig } from './types/config.js';
import type { HarnessResult } from './types/result.js';
import type { HarnessRuntime, HarnessStreamEvent, HarnessTurnStream } from './types/runtime.js';
import type { HarnessResumeOptions, HarnessResumeResolution } from './types/continuation.js';
import type { HarnessCompactOptions, HarnessCompactResult } from './types/compaction.js';
import type { HarnessHistoryMessage, HarnessRunOptions, HarnessTurnInput } from '../shared/types/turn-input.js';

const systemClock: HarnessClock = { now: () => Date.now() };

/** The runtime as implemented: the methods of `HarnessRuntime` without the output typing. */
interface UntypedRuntime {
  runTurn(input: HarnessTurnInput, options?: HarnessRunOptions): Promise<HarnessResult>;
  streamTurn(input: HarnessTurnInput, options?: HarnessRunOptions): HarnessTurnStream;
  resumeTurn(continuation: unknown, resolution: HarnessResumeResolution, options?: HarnessResumeOptions): Promise<HarnessResult>;
  streamResumeTurn(continuation: unknown, resolution: HarnessResumeResolution, options?: HarnessResumeOptions): HarnessTurnStream;
  compact(history: readonly HarnessHistoryMessage[], options?: HarnessCompactOptions): Promise<HarnessCompactResult>;
}

/**
 * Creates a harness that runs bounded turns with a model adapter (the harness drives the loop)
 * or an execution backend (the backend drives it; the harness bounds and normalises it).
 *
 * With an `output` schema, every turn's final answer must be a JSON value matching it, and a
 * `completed` result carries the validated value in `result.output`, typed from the schema (see
 * docs/structured-output.md).
 *
 * @throws HarnessConfigError when the config is invalid.
 * @example
 * ```ts
 * const harness = createHarness({ model, tools, limits: { maxIterations: 4 } });
 * const result = await harness.runTurn(input);
 * if (result.outcome === 'completed') console.log(result.assistantMessage?.text);
 *
 * const typed = createHarness({ model, output: z.object({ city: z.string(), days: z.number() }) });
 * const { output } = await typed.runTurn(input); // { city: string; days: number } | undefined
 * ```
 */
export function createHarness<TSchema extends HarnessOutputSchema | undefined = undefined>(
  config: HarnessConfig & { output?: TSchema },
): HarnessRuntime<InferHarnessOutput<TSchema>> {
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
    ...(config.output === undefined ? {} : { output: resolveOutput(config.output, 'createHarness') }),
    compaction: resolveCompaction(config.model === undefined ? undefined : config.compaction, config.model),
    ...(config.resultMetadata === undefined ? {} : { resultMetadata: readResultMetadata(config.resultMetadata) }),
  };
  const { backend, trace, requirements, resumeGuard } = config;
  const runBackend = backend === undefined ? undefined : requireBackendRunner(backend, 'backend');
  /** A call's own `output` schema, checked (a bad one throws `HarnessConfigError`), else the harness's. */
  const outputFor = (schema: unknown, label: string): ResolvedOutput | undefined =>
    schema === undefined ? services.output : resolveOutput(schema, label);

  const start = (
    input: HarnessTurnInput,
    options: HarnessRunOptions & { onStreamEvent?: (event: HarnessStreamEvent) => void },
    output: ResolvedOutput | undefined,
  ): Promise<HarnessResult> => {
    const run = createRun(services, trace, checkInput(input), options);
    if (output !== undefined) run.output = output;
    return runBackend === undefined || backend === undefined ? runModelLoop(run) : runBackend(run, backend, { requirements });
  };

  const runtime: UntypedRuntime = {
    runTurn(input, options = {}) {
      try {
        return start(input, { signal: options.signal, steering: options.steering }, outputFor(options.output, 'runTurn'));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    streamTurn(input, options = {}) {
      const checked = checkInput(input);
      const output = outputFor(options.output, 'streamTurn');
      return createTurnStream(options.signal, (onStreamEvent, signal) =>
        start(checked, { signal, onStreamEvent, steering: options.steering }, output),
      );
    },
    resumeTurn(continuation, resolution, options = {}) {
      return resumeRun({ services, trace, backend, runBackend, requirements, resumeGuard }, continuation, resolution, options);
    },
    streamResumeTurn(continuation, resolution, options = {}) {
      return createTurnStream(options.signal, (onStreamEvent, signal) =>
        resumeRun({ services, trace, backend, runBackend, requirements, resumeGuard }, continuation, resolution, { ...options, signal, onStreamEvent }),
      );
    },
    compact: (history, options) => compactStandalone(services, history, options),
  };
  // The methods are typed for any schema; each call's `output` type is its schema's (or the harness's).
  return runtime as HarnessRuntime<InferHarnessOutput<TSchema>>;
}

function checkInput(input: HarnessTurnInput): HarnessTurnInput {
  const parsed = turnInputSchema.safeParse(input);
  if (!parsed.success) {
    throw new HarnessConfigError(`Invalid turn input: ${formatIssues(parsed.error.issues, 'input')}.`, { field: 'input' });
  }
  return parsed.data as HarnessTurnInput;
}

/** A plain copy of `resultMetadata`; anything but a plain object of JSON values is refused. */
function readResultMetadata(value: unknown): Readonly<Record<string, unknown>> {
  const copied = isRecord(value) ? detachValue(value) : undefined;
  if (copied === undefined || !copied.ok || !isRecord(copied.value)) {
    throw new HarnessConfigError('resultMetadata must be a plain object of JSON values.', { field: 'resultMetadata' });
  }
  return copied.value;
}
