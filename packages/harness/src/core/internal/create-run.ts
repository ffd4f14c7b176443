import type { HarnessContinuation } from '../types/continuation.js';
import type { HarnessStreamEvent } from '../types/runtime.js';
import type { HarnessTraceSink } from '../types/trace.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';
import type { HarnessRunOptions, HarnessTurnInput } from '../../shared/types/turn-input.js';
import type { HarnessAggregateUsage } from '../../shared/types/usage.js';
import type { HarnessToolStateEntry } from '../../shared/types/tools.js';
import { emptyUsage, type HarnessServices, type RunContext } from './run-context.js';
import { TraceEmitter } from './trace-emitter.js';
import { createTurnSignal, type TurnSignal } from './turn-signal.js';
import { bindSteering } from './turn-steering.js';

/** State a resumed run starts from. */
export interface RunSeed {
  transcript?: HarnessTranscriptItem[];
  usage?: HarnessAggregateUsage;
  iterationOffset?: number;
  reportedUnknownTools?: string[];
  toolState?: HarnessToolStateEntry[];
  resumedFrom?: HarnessContinuation;
  /** The deadline a resume's claim already ran under, and when it started: the run keeps both. */
  turnSignal?: TurnSignal;
  startedAt?: number;
}

/** Starts the clock and the deadline of a run. */
export function createRun(
  services: HarnessServices,
  trace: HarnessTraceSink | undefined,
  input: HarnessTurnInput,
  options: HarnessRunOptions & { onStreamEvent?: (event: HarnessStreamEvent) => void },
  seed: RunSeed = {},
): RunContext {
  const counters = { iteration: 0, toolCallCount: 0, startedAt: seed.startedAt ?? services.clock.now() };
  const usage = seed.usage === undefined ? emptyUsage() : { ...seed.usage };
  const emitter = new TraceEmitter(trace, services.clock, input, counters, options.onStreamEvent, seed.iterationOffset ?? 0);
  const steering =
    options.steering === undefined
      ? undefined
      : bindSteering(options.steering, (outcome, chars) => emitter.emit({ type: 'steer', steerId: outcome.id, status: outcome.status, chars }));
  return {
    services,
    input,
    turnSignal: seed.turnSignal ?? createTurnSignal(options.signal, services.limits.maxElapsedMs),
    trace: emitter,
    counters,
    iterationOffset: seed.iterationOffset ?? 0,
    transcript: seed.transcript === undefined ? [] : [...seed.transcript],
    usage,
    costAtStart: usage.totalCostUnits,
    consecutiveInvalid: 0,
    reportedUnknownTools: seed.reportedUnknownTools === undefined || seed.reportedUnknownTools.length === 0 ? undefined : new Set(seed.reportedUnknownTools),
    recentResultSignatures: [],
    stepResultSignatures: undefined,
    modelReceipts: [],
    availableTools: [],
    toolsByName: undefined,
    toolState: undefined,
    toolStateSeed: seed.toolState,
    resumedFrom: seed.resumedFrom,
    streaming: options.onStreamEvent !== undefined,
    ...(steering === undefined ? {} : { steering }),
    phase: 'start',
    compactions: [],
  };
}
