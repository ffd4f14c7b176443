import { stableStringify } from '../continuation/stable-stringify.js';
import { commonSchemas } from '../../shared/schemas/common-schemas.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import type { HarnessApprovalRequest } from '../types/approval.js';
import type {
  HarnessToolCall,
  HarnessToolDefinition,
  HarnessToolPauseRequest,
  HarnessToolResult,
  HarnessToolResumeResolution,
  HarnessToolTurnSeam,
} from '../../shared/types/tools.js';
import type { RunEnding } from './finish-run.js';
import { addUsage, callerIdentity, executionState, toolStateOf, transcriptIteration, type RunContext } from './run-context.js';
import {
  interruptedToolResult,
  normaliseToolResult,
  rejectedToolResult,
  skippedToolResult,
  thrownToolResult,
  unknownToolResult,
} from './tool-results.js';
import { detachValue } from '../continuation/detach-value.js';
import { isTurnInterrupted, raceSignal } from './turn-signal.js';

/**
 * Approval decisions from a resume, keyed by call id. A `Map`, so an id such as `__proto__` or
 * `constructor` is never "already decided" by a name inherited from `Object.prototype`.
 */
export type ApprovalDecisions = ReadonlyMap<string, 'approved' | 'rejected'>;

const noDecisions: ApprovalDecisions = new Map();

/** The decisions of a resume resolution, read from its own keys only. */
export function approvalDecisions(record: Readonly<Record<string, 'approved' | 'rejected'>>): ApprovalDecisions {
  const decisions = new Map<string, 'approved' | 'rejected'>();
  for (const [id, decision] of Object.entries(record)) {
    if (decision === 'approved' || decision === 'rejected') decisions.set(id, decision);
  }
  return decisions;
}

type PlannedCall =
  | { call: HarnessToolCall; kind: 'immediate'; result: HarnessToolResult }
  | { call: HarnessToolCall; kind: 'run'; index: number };

const REDUNDANT_REPEATS = 3;

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

/**
 * Runs one step's tool calls. Returns how the run ends, or `undefined` when the loop should ask the
 * model again.
 */
export async function runToolStep(
  run: RunContext,
  calls: HarnessToolCall[],
  decisions: ApprovalDecisions = noDecisions,
  resume?: CarriedCallResume,
): Promise<RunEnding | undefined> {
  run.stepResultSignatures = new Set();
  const toolsByName = new Map(run.availableTools.map((tool) => [tool.name, tool]));
  const repeatedUnknown = calls.find((call) => !toolsByName.has(call.name) && run.reportedUnknownTools?.has(call.name) === true);
  if (repeatedUnknown !== undefined) {
    return {
      stopReason: 'tool_unavailable',
      metadata: {
        toolName: repeatedUnknown.name,
        error: { code: 'tool_unavailable', message: `The model asked again for the unknown tool "${repeatedUnknown.name}".` },
      },
    };
  }

  const needApproval = calls.filter((call) => {
    const tool = toolsByName.get(call.name);
    return tool !== undefined && !decisions.has(call.id) && requiresApproval(tool, call);
  });
  if (needApproval.length > 0) return pauseForApproval(run, calls, needApproval);

  const availableNames = [...toolsByName.keys()];
  let budget = run.services.limits.maxToolCalls - run.counters.toolCallCount;
  const planned: PlannedCall[] = [];
  const overBudget: HarnessToolCall[] = [];
  for (const [position, call] of calls.entries()) {
    if (!toolsByName.has(call.name)) {
      (run.reportedUnknownTools ??= new Set()).add(call.name);
      planned.push({ call, kind: 'immediate', result: unknownToolResult(call, availableNames) });
    } else if (decisions.get(call.id) === 'rejected') {
      planned.push({ call, kind: 'immediate', result: rejectedToolResult(call) });
    } else if (budget > 0) {
      budget -= 1;
      planned.push({ call, kind: 'run', index: position });
    } else {
      overBudget.push(call);
    }
  }

  run.trace.emit({ type: 'tool_requested', calls });
  const concurrency = run.services.limits.toolConcurrency;
  let index = 0;
  while (index < planned.length) {
    const window: PlannedCall[] = [planned[index]!];
    index += 1;
    if (window[0]!.kind === 'run') {
      while (index < planned.length && window.length < concurrency && planned[index]!.kind === 'run') {
        window.push(planned[index]!);
        index += 1;
      }
    }
    const interruptedBefore = run.turnSignal.interruptReason();
    if (interruptedBefore !== undefined) {
      const stopReason = interruptedBefore === 'timeout' ? 'timeout_reached' : 'cancelled';
      return endEarly(run, { stopReason }, [], [...window, ...planned.slice(index)], overBudget);
    }
    const executed = await executeWindow(run, window, resume);
    if (run.turnSignal.interruptReason() === undefined && executed.some((entry) => entry.pause !== undefined)) {
      return pauseForTools(run, executed, planned.slice(index), overBudget);
    }
    for (let position = 0; position < executed.length; position += 1) {
      const { call, result, latencyMs } = executed[position]!;
      const interrupted = run.turnSignal.interruptReason();
      const ending =
        interrupted === undefined ? await recordResult(run, call, result, latencyMs) : recordInterrupted(run, result, latencyMs, interrupted);
      if (ending !== undefined) {
        return endEarly(run, ending, executed.slice(position + 1), planned.slice(index), overBudget);
      }
    }
  }
  if (overBudget.length > 0) {
    return { stopReason: 'max_tool_calls_reached', pause: { pendingCalls: overBudget } };
  }
  return undefined;
}

/** Fails closed: a rule that throws or answers anything but `false` requires approval. */
function requiresApproval(tool: HarnessToolDefinition, call: HarnessToolCall): boolean {
  const rule = tool.requiresApproval;
  if (typeof rule !== 'function') return rule === true;
  try {
    return rule(call.input) !== false;
  } catch {
    return true;
  }
}

async function pauseForApproval(
  run: RunContext,
  calls: HarnessToolCall[],
  needApproval: HarnessToolCall[],
): Promise<RunEnding> {
  const requests: HarnessApprovalRequest[] = [];
  for (const call of needApproval) {
    const request: HarnessApprovalRequest = {
      id: call.id,
      kind: 'tool_call',
      summary: approvalSummary(call),
      details: { toolName: call.name, input: call.input },
    };
    requests.push(await prepareApproval(run, request));
  }
  const iteration = transcriptIteration(run);
  for (const request of requests) run.transcript.push({ type: 'approval_request', iteration, request });
  run.trace.emit({ type: 'approval_requested', requests });
  return {
    stopReason: 'approval_required',
    pause: { approvals: requests, pendingCalls: calls },
    metadata: { approvalRequests: requests },
  };
}

/** The one-line summary of a tool call's approval request: the tool and its input, shortened. */
export function approvalSummary(call: HarnessToolCall): string {
  const input = JSON.stringify(call.input);
  return `Run ${call.name} with ${input.length > 160 ? `${input.slice(0, 160)}…` : input}`;
}

/**
 * Lets the approvals adapter register or enrich a request; its id is kept so decisions match.
 * What the adapter returns is checked and detached; an unusable value fails the turn.
 */
export async function prepareApproval(run: RunContext, request: HarnessApprovalRequest): Promise<HarnessApprovalRequest> {
  const approvals = run.services.approvals;
  if (approvals === undefined) return request;
  run.phase = 'approvals.prepareRequest';
  const prepared: unknown = await raceSignal(
    () => approvals.prepareRequest({ ...callerIdentity(run.input), allowedToolNames: run.input.allowedToolNames, request }),
    run.turnSignal.signal,
  );
  return mergePreparedRequest(request, prepared);
}

function mergePreparedRequest(request: HarnessApprovalRequest, prepared: unknown): HarnessApprovalRequest {
  if (prepared === undefined || prepared === null) return request;
  const copied = detachValue(prepared);
  if (!copied.ok) throw new Error(`approvals.prepareRequest returned an unusable request: ${copied.reason}.`);
  if (typeof copied.value !== 'object' || copied.value === null || Array.isArray(copied.value)) {
    throw new Error('approvals.prepareRequest returned an unusable request: it is not an object.');
  }
  const parsed = commonSchemas().approvalRequestSchema.safeParse({ ...request, ...copied.value, id: request.id });
  if (!parsed.success) {
    throw new Error(`approvals.prepareRequest returned an unusable request: ${formatIssues(parsed.error.issues)}.`);
  }
  return parsed.data as HarnessApprovalRequest;
}

interface ExecutedCall {
  call: HarnessToolCall;
  result: HarnessToolResult;
  latencyMs: number;
  /** What the call asked the turn to pause for (`context.turn.pause`). */
  pause?: HarnessToolPauseRequest;
}

/** Runs a window of calls at once (one call when concurrency is 1); immediate results pass through. */
async function executeWindow(run: RunContext, window: PlannedCall[], resume: CarriedCallResume | undefined): Promise<ExecutedCall[]> {
  const { tools, clock } = run.services;
  const iteration = transcriptIteration(run);
  const signal = run.turnSignal.signal;
  return Promise.all(
    window.map((entry): ExecutedCall | Promise<ExecutedCall> => {
      const { call } = entry;
      if (entry.kind === 'immediate') return { call, result: entry.result, latencyMs: 0 };
      run.counters.toolCallCount += 1;
      run.usage.toolCalls += 1;
      run.trace.emit({ type: 'tool_started', call });
      run.trace.stream({ type: 'tool_started', iteration, call });
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
          return { call, result: normaliseToolResult(call, value), latencyMs: clock.now() - startedAt, ...(pause === undefined ? {} : { pause }) };
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
    }),
  );
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

/**
 * Some calls of the window asked to pause the turn (`context.turn.pause`, e.g. a subagent that
 * needs approval). The other finished calls are recorded; the pausing calls (their usage counted,
 * their results not recorded) and every call not run yet are carried to the resume, pausing ones
 * first. The first pause's kind decides the ending; approval requests of all pausing calls are
 * asked together. A pausing call whose request is not answered by the resolution pauses again.
 */
async function pauseForTools(
  run: RunContext,
  executed: ExecutedCall[],
  remaining: PlannedCall[],
  overBudget: HarnessToolCall[],
): Promise<RunEnding> {
  const pausing = executed.filter((entry) => entry.pause !== undefined);
  for (const entry of executed) {
    if (entry.pause === undefined) recordWithoutHooks(run, entry.result, entry.latencyMs);
    else {
      addUsage(run.usage, entry.result.usage, entry.latencyMs);
      // The call runs again, with the same id, on resume: it is counted in `usage.toolCalls` then, once.
      run.usage.toolCalls -= 1;
    }
  }
  for (const item of remaining) if (item.kind === 'immediate') recordWithoutHooks(run, item.result, 0);
  const pendingCalls = [
    ...pausing.map((entry) => entry.call),
    ...remaining.filter((item) => item.kind === 'run').map((item) => item.call),
    ...overBudget,
  ];
  const iteration = transcriptIteration(run);
  const first = pausing[0]!.pause!;
  if (first.type === 'clarification') {
    const asker = pausing[0]!.call;
    const { question, choices } = readToolQuestion(asker, first);
    const offered = choices === undefined ? {} : { choices };
    run.transcript.push({ type: 'clarification_request', iteration, question, callId: asker.id, ...offered });
    run.trace.emit({ type: 'clarification_requested', question });
    return {
      stopReason: 'clarification_required',
      assistantText: question,
      pause: { question, pendingCalls },
      metadata: { clarification: { callId: asker.id, toolName: asker.name, ...offered } },
    };
  }
  const requests: HarnessApprovalRequest[] = [];
  for (const entry of pausing) {
    if (entry.pause?.type !== 'approval') continue;
    for (const raw of entry.pause.requests) {
      const parsed = commonSchemas().approvalRequestSchema.safeParse(raw);
      if (!parsed.success) {
        throw new Error(`${entry.call.name} asked to pause for an unusable approval request: ${formatIssues(parsed.error.issues)}.`);
      }
      requests.push(await prepareApproval(run, detachApproval(parsed.data as HarnessApprovalRequest)));
    }
  }
  if (requests.length === 0 || new Set(requests.map((request) => request.id)).size !== requests.length) {
    throw new Error('A tool asked to pause for approval without requests, or with duplicate request ids.');
  }
  for (const request of requests) run.transcript.push({ type: 'approval_request', iteration, request });
  run.trace.emit({ type: 'approval_requested', requests });
  return {
    stopReason: 'approval_required',
    pause: { approvals: requests, pendingCalls },
    metadata: { approvalRequests: requests },
  };
}

const MAX_CHOICES = 20;
const MAX_CHOICE_CHARS = 500;

/**
 * The question (trimmed; a blank one gets a generic text) and choices (trimmed, blank ones
 * dropped) a tool paused for, read once as plain data. Choices that are not strings, or more
 * than the bounds allow, throw (the turn fails `runtime_error`).
 */
function readToolQuestion(call: HarnessToolCall, pause: HarnessToolPauseRequest): { question: string; choices?: string[] } {
  const copied = detachValue(pause);
  if (!copied.ok) throw new Error(`${call.name} asked to pause for an unusable question: ${copied.reason}.`);
  const fields = copied.value as { question?: unknown; choices?: unknown };
  const question = (typeof fields.question === 'string' ? fields.question.trim() : '') || 'The tool needs more information.';
  if (fields.choices === undefined) return { question };
  const raw = fields.choices;
  if (!Array.isArray(raw) || raw.length > MAX_CHOICES || raw.some((choice) => typeof choice !== 'string' || choice.length > MAX_CHOICE_CHARS)) {
    throw new Error(`${call.name} asked to pause with unusable choices: give at most ${String(MAX_CHOICES)} strings of at most ${String(MAX_CHOICE_CHARS)} characters.`);
  }
  const choices = (raw as string[]).map((choice) => choice.trim()).filter((choice) => choice !== '');
  return choices.length === 0 ? { question } : { question, choices };
}

function detachApproval(request: HarnessApprovalRequest): HarnessApprovalRequest {
  const copied = detachValue(request);
  if (!copied.ok) throw new Error(`A tool asked to pause for an unusable approval request: ${copied.reason}.`);
  return copied.value;
}

/** After the turn was interrupted: record what finished, and stop. */
function recordInterrupted(
  run: RunContext,
  result: HarnessToolResult,
  latencyMs: number,
  reason: 'timeout' | 'cancelled',
): RunEnding {
  recordWithoutHooks(run, result, latencyMs);
  return { stopReason: reason === 'timeout' ? 'timeout_reached' : 'cancelled' };
}

function recordWithoutHooks(run: RunContext, result: HarnessToolResult, latencyMs: number): void {
  addUsage(run.usage, result.usage, latencyMs);
  run.transcript.push({ type: 'tool_result', iteration: transcriptIteration(run), result });
  run.trace.emit({ type: result.status === 'error' ? 'tool_failed' : 'tool_finished', result, latencyMs });
  run.trace.stream({ type: 'tool_finished', iteration: transcriptIteration(run), result });
}

async function recordResult(
  run: RunContext,
  call: HarnessToolCall,
  result: HarnessToolResult,
  latencyMs: number,
): Promise<RunEnding | undefined> {
  recordWithoutHooks(run, result, latencyMs);
  try {
    return await applyHooks(run, call, result);
  } catch (error) {
    if (isTurnInterrupted(error)) {
      return { stopReason: error.reason === 'timeout' ? 'timeout_reached' : 'cancelled' };
    }
    throw error;
  }
}

async function applyHooks(run: RunContext, call: HarnessToolCall, result: HarnessToolResult): Promise<RunEnding | undefined> {
  const { hooks } = run.services;
  const signal = run.turnSignal.signal;
  let decision: void | 'continue' | 'fail' = undefined;
  if (result.status === 'error') {
    run.recentResultSignatures.length = 0;
    if (hooks.onToolError !== undefined) {
      const onToolError = hooks.onToolError;
      run.phase = 'hooks.onToolError';
      decision = await raceSignal(() => onToolError(result, executionState(run)), signal);
    }
  }
  if (hooks.clarifyOnToolResult !== undefined) {
    const clarify = hooks.clarifyOnToolResult;
    run.phase = 'hooks.clarifyOnToolResult';
    const clarification: unknown = await raceSignal(() => clarify(result, executionState(run)), signal);
    // Read once, as plain data: a hook's value may carry getters or Proxies.
    const copied = detachValue(clarification ?? null);
    if (!copied.ok) throw new Error(`clarifyOnToolResult returned an unusable value: ${copied.reason}.`);
    const fields = typeof copied.value === 'object' && copied.value !== null ? (copied.value as Record<string, unknown>) : {};
    const question = typeof fields.question === 'string' ? fields.question.trim() : '';
    if (question !== '') {
      run.transcript.push({ type: 'clarification_request', iteration: transcriptIteration(run), question });
      run.trace.emit({ type: 'clarification_requested', question });
      return {
        stopReason: 'clarification_required',
        assistantText: question,
        pause: { question },
        metadata: {
          clarification: {
            callId: result.callId,
            toolName: result.toolName,
            reason: typeof fields.reason === 'string' ? fields.reason : undefined,
          },
        },
      };
    }
  }
  if (result.status === 'error') {
    const fatal = decision === 'fail' || (decision !== 'continue' && result.error?.retryable === false);
    if (!fatal) return undefined;
    return {
      stopReason: 'tool_error_unrecoverable',
      metadata: {
        toolName: result.toolName,
        error: {
          code: result.error?.code ?? 'tool_error',
          message: result.error?.message ?? 'The tool failed.',
          source: `tool:${result.toolName}`,
          retryable: false,
        },
      },
    };
  }
  return detectRedundantLoop(run, call, result);
}

/**
 * A loop is the same call with the same answer in consecutive steps. Repeats inside one step
 * (parallel calls, as Gemini makes them) all run and count once.
 */
function detectRedundantLoop(run: RunContext, call: HarnessToolCall, result: HarnessToolResult): RunEnding | undefined {
  const signature = `${result.toolName}\u0000${stableStringify(call.input)}\u0000${result.output ?? ''}\u0000${
    result.structuredOutput === undefined ? '' : stableStringify(result.structuredOutput)
  }`;
  if (run.stepResultSignatures.has(signature)) return undefined;
  run.stepResultSignatures.add(signature);
  const recent = run.recentResultSignatures;
  recent.push(signature);
  if (recent.length > REDUNDANT_REPEATS) recent.shift();
  if (recent.length === REDUNDANT_REPEATS && recent.every((item) => item === signature)) {
    return {
      stopReason: 'redundant_tool_loop',
      metadata: {
        toolName: result.toolName,
        error: {
          code: 'redundant_tool_loop',
          message: `${result.toolName} was called in ${REDUNDANT_REPEATS} steps in a row with the same input and returned the same output.`,
        },
      },
    };
  }
  return undefined;
}

/**
 * The step stops before all calls ran. `finished` calls of the same window are recorded in call
 * order (before a clarification question, which stays last). For a clarification, calls that never
 * ran get a "skipped" result (so every call has one); for a timeout or cancel they are carried to
 * the resume.
 */
function endEarly(
  run: RunContext,
  ending: RunEnding,
  finished: ExecutedCall[],
  remaining: PlannedCall[],
  overBudget: HarnessToolCall[],
): RunEnding {
  const question = ending.stopReason === 'clarification_required' ? run.transcript.pop() : undefined;
  for (const rest of finished) recordWithoutHooks(run, rest.result, rest.latencyMs);
  if (ending.stopReason === 'timeout_reached' || ending.stopReason === 'cancelled') {
    for (const item of remaining) if (item.kind === 'immediate') recordWithoutHooks(run, item.result, 0);
    const notStarted = remaining.filter((item) => item.kind === 'run').map((item) => item.call);
    return { ...ending, pause: { pendingCalls: [...notStarted, ...overBudget] } };
  }
  if (ending.stopReason !== 'clarification_required') return ending;
  for (const item of remaining) {
    recordWithoutHooks(run, item.kind === 'immediate' ? item.result : skippedToolResult(item.call), 0);
  }
  for (const call of overBudget) recordWithoutHooks(run, skippedToolResult(call), 0);
  if (question !== undefined) run.transcript.push(question);
  return ending;
}
