import { describeError } from '../../shared/describe-error.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { stepPreparationSchema } from '../schemas/step-preparation-schema.js';
import type { HarnessStopReason } from '../types/outcome.js';
import type { HarnessResult } from '../types/result.js';
import type {
  HarnessApprovalRequestOutput,
  HarnessFinalAnswerOutput,
  HarnessInvalidOutput,
  HarnessModelAdapter,
  HarnessModelInput,
  HarnessModelOutput,
  HarnessModelStreamPart,
} from '../types/model.js';
import type { HarnessToolCall, HarnessToolDefinition } from '../../shared/types/tools.js';
import type { HarnessHistoryMessage, HarnessToolChoice } from '../../shared/types/turn-input.js';
import { checkInputLimits } from './check-input-limits.js';
import { compactAfterOverflow, compactBeforeStep, isContextOverflow } from './compact-in-turn.js';
import { readStructuredAnswer, type StructuredAnswer } from '../output/read-structured-answer.js';
import { outputFormat, STRUCTURED_OUTPUT_NAME, type ResolvedOutput } from '../output/resolve-output.js';
import { finishRun, type RunEnding } from './finish-run.js';
import { readModelOutput, type StepCallLimit } from './read-model-output.js';
import { readToolDefinitions } from './read-tool-definitions.js';
import { rekeyRepeatedCallIds } from './rekey-call-ids.js';
import { addUsage, elapsedMs, executionState, transcriptIteration, type RunContext } from './run-context.js';
import { runToolStep } from './run-tool-step.js';
import { approvalDecisions, prepareApproval } from '../tool-approval.js';
import type { CarriedCallResume } from './execute-tool-window.js';
import { isTurnInterrupted, raceSignal, type InterruptReason } from './turn-signal.js';
import { createPartialOutputStream } from './partial-output-stream.js';
import type { TraceEventBody } from './trace-emitter.js';
import type { HarnessAssistantStepItem } from '../types/transcript.js';

/** Where a resumed run starts: calls to run before the model is asked again. */
export interface LoopStart {
  pendingCalls?: HarnessToolCall[];
  /** The resume's approval decisions by call id; only own keys count. */
  decisions?: Readonly<Record<string, 'approved' | 'rejected'>>;
  /** What the resume gives the carried-over calls (`context.turn.resolution`). */
  resume?: CarriedCallResume;
}

/**
 * Drives model → tools → model until an ending, and always returns a result: whatever a model,
 * hook, approvals adapter or tool registry throws (any value, including Proxies and throwing
 * getters) ends the turn `failed` / `runtime_error`, never a rejection.
 */
export async function runModelLoop(run: RunContext, start: LoopStart = {}): Promise<HarnessResult> {
  run.steering?.close('steer_unsupported', "The harness's own model loop does not take input mid-turn; send it as the next turn.");
  try {
    let ending = await startRun(run, start);
    const { hooks, compaction } = run.services;
    // The steps run in this frame, and each awaits only what it has (no hook, no compaction: no
    // extra async frame per step): while a model call is in flight the turn holds one suspended
    // async function.
    while (ending === undefined) {
      const limit = checkLimits(run);
      if (limit !== undefined) {
        ending = { stopReason: limit };
        break;
      }
      run.counters.iteration += 1;
      let toolChoice = run.input.toolChoice;
      const prepareHook = hooks.prepareStep;
      if (prepareHook !== undefined) {
        const step = await prepareStep(run, prepareHook);
        if ('stopReason' in step) {
          ending = step;
          break;
        }
        toolChoice = step.toolChoice;
      }
      if (compaction.auto !== undefined) {
        ending = await compactBeforeStep(run);
        if (ending !== undefined) break;
      }
      let call = callModel(run, toolChoice);
      let output: HarnessModelOutput | RunEnding = readModelStep(run, call, await call.raw);
      // A provider's context-overflow error: the conversation is compacted and the step asked again
      // once; a second overflow is the step's output.
      if (isContextOverflow(output)) {
        const next = await compactAfterOverflow(run, output);
        if (next === 'retry') {
          call = callModel(run, toolChoice);
          output = readModelStep(run, call, await call.raw);
        } else {
          output = next;
        }
      }
      if ('stopReason' in output) {
        ending = output;
        break;
      }
      const handled = handleOutput(run, output);
      ending = handled instanceof Promise ? await handled : handled;
    }
    return await finishRun(run, ending);
  } catch (error) {
    if (isTurnInterrupted(error)) return finishRun(run, { stopReason: interruptStopReason(error.reason) });
    return finishRun(run, {
      stopReason: 'runtime_error',
      metadata: { error: { code: 'runtime_error', message: describeError(error), source: run.phase } },
    });
  } finally {
    run.turnSignal.dispose();
  }
}

/** The stop reason of an interrupted run. */
export function interruptStopReason(reason: InterruptReason): HarnessStopReason {
  return reason === 'timeout' ? 'timeout_reached' : 'cancelled';
}

/** Before the first step: input limits, the tool listing, and a resume's carried calls. */
async function startRun(run: RunContext, start: LoopStart): Promise<RunEnding | undefined> {
  run.trace.emit(run.resumedFrom === undefined ? { type: 'turn_started' } : { type: 'turn_started', resumedFrom: run.resumedFrom.id });
  if (run.streaming) run.trace.stream({ type: 'turn_started', turnId: run.input.turnId });
  const overLimit = checkInputLimits(run.input, run.services.limits);
  if (overLimit !== undefined) return overLimit;
  run.phase = 'tools.listAvailable';
  run.availableTools = await loadTools(run);
  const badChoice = toolChoiceEnding(run.availableTools, run.input.toolChoice, 'input.toolChoice');
  if (badChoice !== undefined) return badChoice;
  if (run.output !== undefined) checkOutputName(run);
  if (start.pendingCalls !== undefined && start.pendingCalls.length > 0) {
    run.phase = 'tools.execute';
    const decisions = start.decisions === undefined ? undefined : approvalDecisions(start.decisions);
    return runToolStep(run, start.pendingCalls, decisions, start.resume);
  }
  return undefined;
}

/** The structured answer's name is the forced answer tool of some providers: no real tool may share it. */
function checkOutputName(run: RunContext): void {
  run.phase = 'output';
  if (run.availableTools.some((tool) => tool.name === STRUCTURED_OUTPUT_NAME)) {
    throw new Error(`A tool is named "${STRUCTURED_OUTPUT_NAME}", the name of the structured answer of a turn with an output schema; rename the tool.`);
  }
}

async function loadTools(run: RunContext): Promise<HarnessToolDefinition[]> {
  const { tools } = run.services;
  if (tools === undefined) return [];
  const { input } = run;
  const allowedToolNames = input.allowedToolNames;
  // Written out field by field (the fields of `callerIdentity`): an object spread here took 5 % of a
  // steady-state profile.
  const availability = {
    assistantId: input.assistantId,
    turnId: input.turnId,
    workspaceId: input.workspaceId,
    sessionId: input.sessionId,
    userId: input.userId,
    threadId: input.threadId,
    allowedToolNames,
  };
  const listed = await raceSignal(() => tools.listAvailable(availability), run.turnSignal.signal);
  return readToolDefinitions(listed, allowedToolNames);
}

function checkLimits(run: RunContext): HarnessStopReason | undefined {
  const { limits } = run.services;
  const interrupted = run.turnSignal.interruptReason();
  if (interrupted !== undefined) return interruptStopReason(interrupted);
  if (run.counters.iteration >= limits.maxIterations) return 'max_iterations_reached';
  if (elapsedMs(run) >= limits.maxElapsedMs) return 'timeout_reached';
  if (limits.budgetLimit !== undefined && run.usage.totalCostUnits - run.costAtStart >= limits.budgetLimit) {
    return 'budget_reached';
  }
  return undefined;
}

/**
 * This step's tool choice: what `hooks.prepareStep` returns, else the turn's. A hook value that
 * is not `undefined` or `{ toolChoice? }` throws (the turn fails `runtime_error`, source
 * `hooks.prepareStep`); a choice the available tools cannot meet ends the turn `tool_unavailable`.
 */
async function prepareStep(
  run: RunContext,
  hook: NonNullable<RunContext['services']['hooks']['prepareStep']>,
): Promise<{ toolChoice: HarnessToolChoice | undefined } | RunEnding> {
  run.phase = 'hooks.prepareStep';
  const prepared: unknown = await raceSignal(() => hook(executionState(run)), run.turnSignal.signal);
  if (prepared === undefined) return { toolChoice: run.input.toolChoice };
  const parsed = stepPreparationSchema.safeParse(prepared);
  if (!parsed.success) throw new Error(`prepareStep returned an unusable value: ${formatIssues(parsed.error.issues)}.`);
  const chosen = parsed.data.toolChoice as HarnessToolChoice | undefined;
  if (chosen === undefined) return { toolChoice: run.input.toolChoice };
  return toolChoiceEnding(run.availableTools, chosen, 'hooks.prepareStep') ?? { toolChoice: chosen };
}

/** The ending for a tool choice the available tools cannot meet, or `undefined`. */
function toolChoiceEnding(tools: readonly HarnessToolDefinition[], choice: HarnessToolChoice | undefined, source: string): RunEnding | undefined {
  if (choice === undefined || choice === 'auto' || choice === 'none') return undefined;
  const names = tools.map((tool) => tool.name);
  const listed = names.length === 0 ? 'no tools are available' : `the available tools are ${names.map((name) => JSON.stringify(name)).join(', ')}`;
  if (choice === 'required') {
    if (names.length > 0) return undefined;
    return toolChoiceFailure(source, `toolChoice 'required' asks the model to call a tool, but ${listed}.`);
  }
  if (names.includes(choice.name)) return undefined;
  const shown = choice.name.length > 100 ? `${choice.name.slice(0, 100)}…` : choice.name;
  return toolChoiceFailure(source, `toolChoice names the tool ${JSON.stringify(shown)}, which is not available: ${listed}.`, shown);
}

function toolChoiceFailure(source: string, message: string, toolName?: string): RunEnding {
  return {
    stopReason: 'tool_unavailable',
    metadata: { ...(toolName === undefined ? {} : { toolName }), error: { code: 'tool_unavailable', message, source, retryable: false } },
  };
}

/** A copy of the history for one step, so an adapter cannot change what later steps see. */
function copyHistory(history: readonly HarnessHistoryMessage[]): HarnessHistoryMessage[] {
  return history.map((entry) =>
    entry.attachments === undefined ? { ...entry } : { ...entry, attachments: entry.attachments.map((attachment) => ({ ...attachment })) },
  );
}

function modelInput(run: RunContext, toolChoice: HarnessToolChoice | undefined): HarnessModelInput {
  const { input, services } = run;
  const budget = services.limits.budgetLimit;
  // Written out field by field: object spread here was the loop's hottest line.
  return {
    assistantId: input.assistantId,
    turnId: input.turnId,
    workspaceId: input.workspaceId,
    sessionId: input.sessionId,
    userId: input.userId,
    threadId: input.threadId,
    message: input.message,
    instructions: input.instructions,
    context: input.context,
    history: input.history === undefined ? undefined : copyHistory(input.history),
    output: run.output === undefined ? undefined : outputFormat(run.output),
    toolChoice: toolChoice === undefined ? undefined : typeof toolChoice === 'string' ? toolChoice : { name: toolChoice.name },
    transcript: [...run.transcript],
    availableTools: run.availableTools,
    iteration: run.counters.iteration,
    toolCallCount: run.counters.toolCallCount,
    elapsedMs: elapsedMs(run),
    remainingBudget:
      budget === undefined ? undefined : Math.max(0, budget - (run.usage.totalCostUnits - run.costAtStart)),
    continuation: run.resumedFrom,
    metadata: input.metadata,
    signal: run.turnSignal.signal,
    deadline: run.turnSignal.deadline,
  };
}

/** A model call in flight: what reading its output needs besides the output. */
interface ModelCall {
  /** What the adapter returned (or streamed as its output), raced against the turn's signal. */
  raw: Promise<unknown>;
  startedAt: number;
  iteration: number;
  /** The step went through `streamStep`. */
  streamed: boolean;
}

/** Starts a model step; its output is read by `readModelStep` once `raw` settles. */
function callModel(run: RunContext, toolChoice: HarnessToolChoice | undefined): ModelCall {
  const model = run.services.model as HarnessModelAdapter;
  const input = modelInput(run, toolChoice);
  const iteration = transcriptIteration(run);
  run.trace.emit({ type: 'model_step_started' });
  if (run.streaming) run.trace.stream({ type: 'step_started', iteration });
  run.phase = 'model';
  const startedAt = run.services.clock.now();
  run.usage.modelCalls += 1;
  const streamStep = run.streaming ? model.streamStep?.bind(model) : undefined;
  const raw = raceSignal(
    () => (streamStep === undefined ? model.nextStep(input) : consumeStream(run, streamStep(input), iteration)),
    run.turnSignal.signal,
  );
  return { raw, startedAt, iteration, streamed: streamStep !== undefined };
}

/** Reads what a model step returned: checks it, counts its usage, emits its events. */
function readModelStep(run: RunContext, call: ModelCall, raw: unknown): HarnessModelOutput {
  const { iteration } = call;
  const latencyMs = run.services.clock.now() - call.startedAt;
  const output = readModelOutput(raw, stepCallLimit(run));
  addUsage(run.usage, output.usage, latencyMs);
  const receipt = output.metadata?.receipt;
  if (typeof receipt === 'object' && receipt !== null && !Array.isArray(receipt)) run.modelReceipts.push(receipt as Record<string, unknown>);
  // Optional fields set one by one, not spread from literals: spreads were a large part of a step.
  const finished: Extract<TraceEventBody, { type: 'model_step_finished' }> = { type: 'model_step_finished', outputType: output.type, latencyMs };
  if (output.usage !== undefined) finished.usage = output.usage;
  if (output.type === 'invalid') finished.invalidKind = output.kind;
  if (output.notes !== undefined) finished.notes = output.notes;
  run.trace.emit(finished);
  if (run.streaming && !call.streamed) {
    for (const part of output.reasoning ?? []) {
      if (part.text !== undefined && part.text !== '') run.trace.stream({ type: 'reasoning_delta', iteration, text: part.text });
    }
    if (output.type === 'final_answer' && output.text !== '') run.trace.stream({ type: 'text_delta', iteration, text: output.text });
  }
  if (run.streaming) run.trace.stream({ type: 'step_finished', iteration, outputType: output.type });
  return output;
}

/** The JSON of the smallest call a continuation can carry: `{"id":"a","name":"b","input":{}}`. */
const MIN_CARRIED_CALL_BYTES = 32;

/**
 * The most calls one step may ask for: those this run can still make, plus those a continuation
 * could carry as pending (each takes at least `MIN_CARRIED_CALL_BYTES`). A larger step could only
 * fail, so it is refused before any call is read.
 */
function stepCallLimit(run: RunContext): StepCallLimit {
  const { maxToolCalls, maxContinuationBytes } = run.services.limits;
  const left = Math.max(0, maxToolCalls - run.counters.toolCallCount);
  return { maxCalls: left + Math.floor(maxContinuationBytes / MIN_CARRIED_CALL_BYTES), maxToolCalls };
}

async function consumeStream(
  run: RunContext,
  parts: AsyncIterable<HarnessModelStreamPart>,
  iteration: number,
): Promise<unknown> {
  let output: unknown;
  const partials = run.output === undefined ? undefined : createPartialOutputStream(run, iteration);
  for await (const part of parts) {
    if (run.turnSignal.signal.aborted) break;
    if (part.type === 'text_delta' && typeof part.text === 'string' && part.text !== '') {
      run.trace.stream({ type: 'text_delta', iteration, text: part.text });
      partials?.(part.text);
    } else if (part.type === 'reasoning_delta' && typeof part.text === 'string' && part.text !== '') {
      run.trace.stream({ type: 'reasoning_delta', iteration, text: part.text });
    } else if (part.type === 'output') {
      output = part.output;
    }
  }
  return output ?? { type: 'invalid', kind: 'empty_response', reason: 'The model stream ended without an output.' };
}

/** What a model output does to the run; a promise only when it has something to await. */
function handleOutput(run: RunContext, output: HarnessModelOutput): RunEnding | undefined | Promise<RunEnding | undefined> {
  const iteration = transcriptIteration(run);
  switch (output.type) {
    case 'final_answer': {
      // With an `output` schema the answer must validate; one that does not is an invalid output.
      if (run.output !== undefined) return handleStructuredAnswer(run, run.output, output, iteration);
      run.consecutiveInvalid = 0;
      run.transcript.push(withReasoning({ type: 'assistant_step', iteration, outputType: 'final_answer', text: output.text }, output));
      return { stopReason: 'answer_finalized', assistantText: output.text };
    }
    case 'clarification':
      run.consecutiveInvalid = 0;
      run.transcript.push(withReasoning({ type: 'assistant_step', iteration, outputType: 'clarification', text: output.question }, output));
      run.transcript.push({ type: 'clarification_request', iteration, question: output.question });
      run.trace.emit({ type: 'clarification_requested', question: output.question });
      return { stopReason: 'clarification_required', assistantText: output.question, pause: { question: output.question } };
    case 'approval_request':
      run.consecutiveInvalid = 0;
      return handleApprovalRequest(run, output, iteration);
    case 'refusal':
      run.transcript.push(withReasoning({ type: 'assistant_step', iteration, outputType: 'refusal', text: output.reason }, output));
      return { stopReason: 'model_refused', assistantText: output.reason };
    case 'invalid':
      return handleInvalid(run, output);
    case 'tool_request': {
      if (output.calls.length === 0) {
        return handleInvalid(run, { type: 'invalid', kind: 'schema_mismatch', reason: 'The model asked for tools but listed no calls.' });
      }
      const calls = rekeyRepeatedCallIds(run.transcript, output.calls);
      run.consecutiveInvalid = 0;
      const step: HarnessAssistantStepItem = { type: 'assistant_step', iteration, outputType: 'tool_request', calls };
      if (output.text !== undefined && output.text !== '') step.text = output.text;
      run.transcript.push(withReasoning(step, output));
      run.phase = 'tools.execute';
      return runToolStep(run, calls);
    }
  }
}

/**
 * `item` with the step's reasoning, when it has any: it goes on the step's assistant_step, so the
 * provider can replay it (signatures intact). Set last, not spread: spreads were a large part of a step.
 */
function withReasoning(item: HarnessAssistantStepItem, output: HarnessModelOutput): HarnessAssistantStepItem {
  if (output.reasoning !== undefined && output.reasoning.length > 0) item.reasoning = output.reasoning;
  return item;
}

/** A final answer of a run with an `output` schema: it must validate, else it is an invalid output. */
async function handleStructuredAnswer(
  run: RunContext,
  schema: ResolvedOutput,
  output: HarnessFinalAnswerOutput,
  iteration: number,
): Promise<RunEnding | undefined> {
  const answer = await readAnswer(run, schema, output);
  if (!answer.ok) return handleInvalid(run, { type: 'invalid', kind: 'schema_mismatch', reason: answer.reason });
  run.consecutiveInvalid = 0;
  run.transcript.push(withReasoning({ type: 'assistant_step', iteration, outputType: 'final_answer', text: answer.text }, output));
  return { stopReason: 'answer_finalized', assistantText: answer.text, output: { value: answer.value } };
}

async function handleApprovalRequest(
  run: RunContext,
  output: HarnessApprovalRequestOutput,
  iteration: number,
): Promise<RunEnding> {
  const request = await prepareApproval(run, output.request);
  run.transcript.push(withReasoning({ type: 'assistant_step', iteration, outputType: 'approval_request', text: request.summary }, output));
  run.transcript.push({ type: 'approval_request', iteration, request });
  run.trace.emit({ type: 'approval_requested', requests: [request] });
  return { stopReason: 'approval_required', pause: { approvals: [request] }, metadata: { approvalRequests: [request] } };
}

/** A final answer read against the run's `output` schema, within the turn's deadline. */
function readAnswer(run: RunContext, output: ResolvedOutput, answer: HarnessFinalAnswerOutput): Promise<StructuredAnswer> {
  run.phase = 'output.validate';
  return raceSignal(() => readStructuredAnswer(output.schema, answer), run.turnSignal.signal);
}

async function handleInvalid(run: RunContext, output: HarnessInvalidOutput): Promise<RunEnding | undefined> {
  run.consecutiveInvalid += 1;
  run.transcript.push({
    type: 'invalid_output',
    iteration: transcriptIteration(run),
    kind: output.kind,
    reason: output.reason,
    ...(output.code === undefined ? {} : { code: output.code }),
    ...(output.providerCode === undefined ? {} : { providerCode: output.providerCode }),
  });
  const hook = run.services.hooks.onInvalidModelOutput;
  if (hook !== undefined) {
    run.phase = 'hooks.onInvalidModelOutput';
    await raceSignal(() => hook(output, executionState(run)), run.turnSignal.signal);
  }
  const retryable = output.retryable ?? !(output.kind === 'provider_error' || output.kind === 'model_refused' || output.kind === 'input_too_large');
  const tooMany = run.consecutiveInvalid > run.services.limits.maxConsecutiveInvalidModelOutputs;
  // A failed provider call was already retried by its adapter: one retry budget per step, spent there.
  if (retryable && !tooMany && output.kind !== 'provider_error') return undefined;
  return {
    stopReason: output.kind === 'model_refused' ? 'model_refused' : output.kind === 'provider_error' ? 'provider_error' : 'model_invalid_response',
    metadata: {
      error: {
        code: output.code ?? output.kind,
        message: output.reason,
        source: 'model',
        retryable,
        ...(output.providerCode === undefined ? {} : { providerCode: output.providerCode }),
      },
      ...(output.httpStatus === undefined ? {} : { httpStatus: output.httpStatus }),
      consecutiveInvalidOutputs: run.consecutiveInvalid,
    },
  };
}
