import type { ResolvedCompaction } from '../compaction/resolve-compaction.js';
import type { ContinuationCodec } from '../continuation/continuation-codec.js';
import type { ResolvedOutput } from '../output/resolve-output.js';
import type { ResolvedHarnessLimits } from '../limits.js';
import type { HarnessContinuation } from '../types/continuation.js';
import type { HarnessApprovalAdapter, HarnessClock, HarnessExecutionState, HarnessHooks } from '../types/config.js';
import type { HarnessModelAdapter } from '../types/model.js';
import type { HarnessToolDefinition, HarnessToolRegistry, HarnessToolStateEntry } from '../../shared/types/tools.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';
import type { HarnessTurnInput } from '../../shared/types/turn-input.js';
import type { HarnessAggregateUsage, HarnessUsage } from '../../shared/types/usage.js';
import type { HarnessCompactionReceipt } from '../types/compaction.js';
import type { TraceEmitter } from './trace-emitter.js';
import { createTurnToolState, toolStateBytesFor, type TurnToolState } from './tool-state.js';
import type { TurnSignal } from './turn-signal.js';
import type { TurnSteering } from './turn-steering.js';

/** What stays the same for every run of one harness instance. */
export interface HarnessServices {
  model?: HarnessModelAdapter;
  tools?: HarnessToolRegistry;
  approvals?: HarnessApprovalAdapter;
  hooks: HarnessHooks;
  clock: HarnessClock;
  limits: ResolvedHarnessLimits;
  codec: ContinuationCodec;
  generateId: () => string;
  /** The harness's `output` schema, checked. */
  output?: ResolvedOutput;
  /** How the conversation is compacted, and whether automatically. */
  compaction: ResolvedCompaction;
  /** `resultMetadata`, copied: added to every result's metadata. */
  resultMetadata?: Readonly<Record<string, unknown>>;
}

/** Mutable state of one run (a first run or a resume) of a turn. */
export interface RunContext {
  services: HarnessServices;
  input: HarnessTurnInput;
  turnSignal: TurnSignal;
  trace: TraceEmitter;
  /** Counters the trace emitter reads; `iteration` and `toolCallCount` are per run. */
  counters: { iteration: number; toolCallCount: number; startedAt: number };
  /** Iteration number of the last step before this run, so transcript numbering continues. */
  iterationOffset: number;
  transcript: HarnessTranscriptItem[];
  usage: HarnessAggregateUsage;
  /** `usage.totalCostUnits` when this run started; the budget counts from here. */
  costAtStart: number;
  consecutiveInvalid: number;
  /** Unknown tool names already reported to the model; made on the first one. */
  reportedUnknownTools: Set<string> | undefined;
  /** Signatures (tool, input, output) of the last successful results, one per step at most per signature. */
  recentResultSignatures: string[];
  /** Signatures already counted in the current step: repeats inside one step are not a loop. Made on the first. */
  stepResultSignatures: Set<string> | undefined;
  /** `metadata.receipt` of each model output of this run (profile models stamp one), in call order. */
  modelReceipts: Record<string, unknown>[];
  availableTools: HarnessToolDefinition[];
  /** `availableTools` by name, made on the first tool step (see `runToolStep`). */
  toolsByName: { tools: readonly HarnessToolDefinition[]; byName: ReadonlyMap<string, HarnessToolDefinition> } | undefined;
  /** The turn's tool state (`HarnessToolExecutionContext.state`), made when a tool first runs (see `toolStateOf`). */
  toolState: TurnToolState | undefined;
  /** Tool state restored from a continuation, until the store is made. */
  toolStateSeed: readonly HarnessToolStateEntry[] | undefined;
  resumedFrom?: HarnessContinuation;
  streaming: boolean;
  /** The caller's steering handle, bound to this run. */
  steering?: TurnSteering;
  /** What the run is doing now; names the source of a runtime error. */
  phase: string;
  /** The schema this run's final answer must match (the call's, else the harness's). */
  output?: ResolvedOutput;
  /** What this run compacted, in order (`metadata.compaction`). */
  compactions: HarnessCompactionReceipt[];
}

/** Usage totals before anything ran. */
export function emptyUsage(): HarnessAggregateUsage {
  return {
    totalInputTokens: 0,
    totalOutputTokens: 0,
    totalCostUnits: 0,
    totalLatencyMs: 0,
    modelCalls: 0,
    toolCalls: 0,
  };
}

/** Adds one call's usage to the totals. */
export function addUsage(totals: HarnessAggregateUsage, usage: HarnessUsage | undefined, measuredLatencyMs: number): void {
  totals.totalInputTokens += usage?.inputTokens ?? 0;
  totals.totalOutputTokens += usage?.outputTokens ?? 0;
  totals.totalCostUnits += usage?.costUnits ?? 0;
  if (usage?.cachedInputTokens !== undefined) totals.totalCachedInputTokens = (totals.totalCachedInputTokens ?? 0) + usage.cachedInputTokens;
  if (usage?.reasoningTokens !== undefined) totals.totalReasoningTokens = (totals.totalReasoningTokens ?? 0) + usage.reasoningTokens;
  totals.totalLatencyMs += usage?.latencyMs ?? measuredLatencyMs;
}

/** The iteration number written into transcript items. */
export function transcriptIteration(run: RunContext): number {
  return run.iterationOffset + run.counters.iteration;
}

/** Milliseconds since the run started. */
export function elapsedMs(run: RunContext): number {
  return Math.max(0, run.services.clock.now() - run.counters.startedAt);
}

/** The read-only view hooks receive. */
export function executionState(run: RunContext): HarnessExecutionState {
  const { input } = run;
  return {
    assistantId: input.assistantId,
    turnId: input.turnId,
    workspaceId: input.workspaceId,
    sessionId: input.sessionId,
    userId: input.userId,
    threadId: input.threadId,
    iteration: run.counters.iteration,
    toolCallCount: run.counters.toolCallCount,
    elapsedMs: elapsedMs(run),
    input: { message: input.message, instructions: input.instructions },
    transcript: [...run.transcript],
  };
}

/** Identity fields shared by tool and approval calls. */
export function callerIdentity(input: HarnessTurnInput) {
  return {
    assistantId: input.assistantId,
    turnId: input.turnId,
    workspaceId: input.workspaceId,
    sessionId: input.sessionId,
    userId: input.userId,
    threadId: input.threadId,
  };
}

/** The run's tool state store, made on first use (from the restored entries, if any). */
export function toolStateOf(run: RunContext): TurnToolState {
  run.toolState ??= createTurnToolState(toolStateBytesFor(run.services.limits.maxContinuationBytes), run.toolStateSeed);
  return run.toolState;
}

/** The run's tool state entries for a continuation: the store's, else the restored ones as they came. */
export function toolStateEntries(run: RunContext): readonly HarnessToolStateEntry[] {
  return run.toolState?.entries() ?? run.toolStateSeed ?? [];
}
