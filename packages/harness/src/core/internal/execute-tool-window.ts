import type {
  HarnessToolCall,
  HarnessToolPauseRequest,
  HarnessToolResult,
  HarnessToolResumeResolution,
  HarnessToolTurnSeam,
} from '../../shared/types/tools.js';
import { toolStateOf, transcriptIteration, type RunContext } from './run-context.js';
import { interruptedToolResult, normaliseToolResult, thrownToolResult } from '../tool-results.js';
import { isTurnInterrupted, raceSignal } from './turn-signal.js';

/** A call of the step, planned: answered without running (`immediate`), or run at its position. */
export type PlannedCall =
  | { call: HarnessToolCall; kind: 'immediate'; result: HarnessToolResult }
  | { call: HarnessToolCall; kind: 'run'; index: number };

/** What a resume gives the calls carried over from the paused step. */
export interface CarriedCallResume {
  /** The caller's resolution (`context.turn.resolution`). */
  resolution: HarnessToolResumeResolution;
  /**
   * The call whose question the turn asked: only it sees a clarification's answer. Absent for a
   * continuation that does not name the asking call (every carried call sees the answer then).
   */
  answeredCallId?: string | undefined;
}

/** A call of a window once it ran (or passed through), with what it asked the turn to do. */
export interface ExecutedCall {
  call: HarnessToolCall;
  result: HarnessToolResult;
  latencyMs: number;
  /** What the call asked the turn to pause for (`context.turn.pause`). */
  pause?: HarnessToolPauseRequest;
}

/**
 * Runs a window of calls at once (one call when concurrency is 1); immediate results pass through.
 * Not an async function: a throw of the loop's own (its clock, the trace) comes out synchronously,
 * inside `runToolStep`, which is.
 */
export function executeWindow(run: RunContext, window: PlannedCall[], resume: CarriedCallResume | undefined): Promise<ExecutedCall[]> {
  const { tools, clock } = run.services;
  const iteration = transcriptIteration(run);
  const signal = run.turnSignal.signal;
  // One call (concurrency 1, or a step of one call): its own promise, without `Promise.all`.
  if (window.length === 1) return Promise.resolve(executeCall(window[0]!)).then(asWindow);
  return Promise.all(window.map(executeCall));

  function executeCall(entry: PlannedCall): ExecutedCall | Promise<ExecutedCall> {
    const { call } = entry;
    if (entry.kind === 'immediate') return { call, result: entry.result, latencyMs: 0 };
    run.counters.toolCallCount += 1;
    run.usage.toolCalls += 1;
    run.trace.emit({ type: 'tool_started', call });
    if (run.streaming) run.trace.stream({ type: 'tool_started', iteration, call });
    const startedAt = clock.now();
    const { input } = run;
    let pause: HarnessToolPauseRequest | undefined;
    let running = true;
    const turn: HarnessToolTurnSeam = {
      pause: (request) => {
        pause = request;
      },
      resolution: resolutionFor(resume, call),
      remainingBudget: remainingBudget(run),
      remainingToolCalls: Math.max(0, run.services.limits.maxToolCalls - run.counters.toolCallCount),
      remainingIterations: Math.max(0, run.services.limits.maxIterations - run.counters.iteration),
      emitTrace: (event) => run.trace.forward(event),
    };
    if (run.streaming) {
      turn.emitText = (text) => {
        if (running && typeof text === 'string' && text !== '') {
          run.trace.stream({ type: 'tool_text_delta', iteration, callId: call.id, toolName: call.name, text });
        }
      };
    }
    const context = {
      assistantId: input.assistantId,
      turnId: input.turnId,
      workspaceId: input.workspaceId,
      sessionId: input.sessionId,
      userId: input.userId,
      threadId: input.threadId,
      allowedToolNames: input.allowedToolNames,
      iteration,
      toolCallIndex: entry.index,
      callId: call.id,
      toolName: call.name,
      signal,
      deadline: run.turnSignal.deadline,
      state: toolStateOf(run),
      turn,
    };
    return raceSignal(() => tools!.execute(call, context), signal).then(
      (value): ExecutedCall => {
        running = false;
        const executed: ExecutedCall = { call, result: normaliseToolResult(call, value), latencyMs: clock.now() - startedAt };
        if (pause !== undefined) executed.pause = pause;
        return executed;
      },
      (error: unknown): ExecutedCall => {
        running = false;
        return {
          call,
          result: isTurnInterrupted(error) ? interruptedToolResult(call, error.reason) : thrownToolResult(call, error),
          latencyMs: clock.now() - startedAt,
        };
      },
    );
  }
}

function asWindow(executed: ExecutedCall): ExecutedCall[] {
  return [executed];
}

/** The resolution `call` sees: a clarification's answer only reaches the call that asked. */
function resolutionFor(resume: CarriedCallResume | undefined, call: HarnessToolCall): HarnessToolResumeResolution | undefined {
  if (resume === undefined) return undefined;
  const { resolution, answeredCallId } = resume;
  if (resolution.type === 'clarification' && answeredCallId !== undefined && answeredCallId !== call.id) return undefined;
  return resolution;
}

function remainingBudget(run: RunContext): number | undefined {
  const budget = run.services.limits.budgetLimit;
  return budget === undefined ? undefined : Math.max(0, budget - (run.usage.totalCostUnits - run.costAtStart));
}
