import * as z from '../../shared/validation/index.js';
import { turnIdentity } from '../../shared/turn-identity.js';
import { createHarness } from '../../core/create-harness.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { DEFAULT_TURN_LIMITS } from '../../core/limits.js';
import type { HarnessContinuation, HarnessResumeResolution } from '../../core/types/continuation.js';
import type { HarnessConfig, HarnessLimits } from '../../core/types/config.js';
import type { HarnessTraceEvent, HarnessTraceSink } from '../../core/types/trace.js';
import type { HarnessModelAdapter } from '../../core/types/model.js';
import type { HarnessResult } from '../../core/types/result.js';
import type { HarnessTurnStream } from '../../core/types/runtime.js';
import type { ExecutionAdapter } from '../../execution/types.js';
import type {
  HarnessToolCall,
  HarnessToolDefinition,
  HarnessToolError,
  HarnessToolExecutionContext,
  HarnessToolRegistry,
  HarnessToolResult,
  HarnessToolResumeResolution,
  HarnessToolTurnSeam,
} from '../../shared/types/tools.js';
import type { HarnessTurnInput } from '../../shared/types/turn-input.js';
import type { HarnessAggregateUsage, HarnessUsage } from '../../shared/types/usage.js';
import { composeToolRegistries } from '../compose-tool-registries.js';
import { checkedInput } from '../internal/checked-input.js';
import { filterToolRegistry } from '../internal/filter-tool-registry.js';

/** One subagent the `task` tool can start. */
export interface SubagentDefinition {
  /** The name the model passes as `subagent`: `[A-Za-z0-9_.-]{1,64}` (an agent project's names fit). */
  name: string;
  /** When to use it, written for the model (shown in the `task` tool's description). */
  description: string;
  /** The subagent's system prompt. */
  systemPrompt: string;
  /**
   * Its tools, exactly: names of tools of the registry's `tools` (an allow-list; include `task`
   * to let it start subagents of its own), or a registry of its own. @default no tools
   */
  tools?: readonly string[] | HarnessToolRegistry | undefined;
  /**
   * Limits of its nested turn. Time, budget, model steps and tool calls are never more than what
   * the parent run has left (steps and tool calls at least one).
   * @default the harness defaults, capped by what the parent has left
   */
  limits?: Omit<HarnessLimits, 'maxContinuationBytes'> | undefined;
  /** A model for this subagent only. @default the registry's `model` */
  model?: HarnessModelAdapter | undefined;
}

/** Options of {@link createSubagentToolRegistry}: give `model` or `backend` (or a model per subagent). */
export interface SubagentToolOptions {
  /** The subagents, at least one, with unique names. */
  subagents: readonly SubagentDefinition[];
  /** The model subagents run with, unless one has its own. */
  model?: HarnessModelAdapter | undefined;
  /** An execution backend subagents run on instead of a model. */
  backend?: ExecutionAdapter | undefined;
  /** The registry subagents' allow-lists pick tools from. */
  tools?: HarnessToolRegistry | undefined;
  /** How deeply subagents may nest (a subagent starting a subagent is depth 2): 1 to 5. @default 2 */
  maxDepth?: number | undefined;
}

/** The name of the tool this registry offers. */
export const SUBAGENT_TOOL_NAME = 'task';

const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_PROMPT_CHARS = 20_000;
const STATE_PREFIX = 'subagents.paused.';

/** What a paused delegation keeps in the parent's tool state. */
interface PausedTask {
  subagent: string;
  continuation: HarnessContinuation;
  /** The child's usage already reported to the parent. */
  usage: HarnessAggregateUsage;
  /** The child's own approval request ids (the parent sees them prefixed with the call id). */
  requestIds: string[];
}

/**
 * Creates a registry with one tool, `task` (`{ subagent, prompt }`), that delegates work to a
 * subagent: a nested turn run by the same harness machinery, with its own system prompt and
 * exactly its allow-listed tools. The nested turn shares the parent's signal and deadline, its
 * time and budget are capped by what the parent has left, its usage is added to the parent's,
 * and its trace events go to the parent's sink with the parent's turn id and `subagentPath`.
 * When the subagent needs approval or an answer, the parent turn pauses with the subagent's
 * requests (ids prefixed `<task call id>/`); resuming the parent resumes the subagent.
 * @throws HarnessConfigError for invalid options.
 * @example
 * ```ts
 * const tools = composeToolRegistries(base, createSubagentToolRegistry({
 *   model, tools: base,
 *   subagents: [{ name: 'researcher', description: 'Finds facts.', systemPrompt: 'You research.', tools: ['search'] }],
 * }));
 * ```
 */
export function createSubagentToolRegistry(options: SubagentToolOptions): HarnessToolRegistry & { readonly toolNames: readonly string[] } {
  const checked = checkOptions(options);
  return buildRegistry(checked, 1);
}

interface CheckedOptions extends SubagentToolOptions {
  byName: Map<string, SubagentDefinition>;
  maxDepth: number;
}

function checkOptions(options: SubagentToolOptions): CheckedOptions {
  if (typeof options !== 'object' || options === null) throw new HarnessConfigError('createSubagentToolRegistry expects options.', { field: 'options' });
  const { subagents, model, backend, tools } = options;
  if (!Array.isArray(subagents) || subagents.length === 0) {
    throw new HarnessConfigError('subagents must be a non-empty array.', { field: 'subagents' });
  }
  if (model !== undefined && backend !== undefined) {
    throw new HarnessConfigError('Give model or backend, not both.', { field: 'backend' });
  }
  const maxDepth = options.maxDepth ?? 2;
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 5) {
    throw new HarnessConfigError('maxDepth must be an integer from 1 to 5.', { field: 'maxDepth' });
  }
  if (tools !== undefined && (typeof tools.listAvailable !== 'function' || typeof tools.execute !== 'function')) {
    throw new HarnessConfigError('tools must be a tool registry.', { field: 'tools' });
  }
  const declared = (tools as { toolNames?: unknown } | undefined)?.toolNames;
  const byName = new Map<string, SubagentDefinition>();
  subagents.forEach((agent, index) => {
    const field = `subagents[${String(index)}]`;
    if (typeof agent?.name !== 'string' || !NAME_PATTERN.test(agent.name)) {
      throw new HarnessConfigError(`${field}.name must match ${String(NAME_PATTERN)}.`, { field: `${field}.name` });
    }
    if (byName.has(agent.name)) throw new HarnessConfigError(`Two subagents are named "${agent.name}".`, { field: `${field}.name` });
    if (typeof agent.description !== 'string' || agent.description.trim() === '') {
      throw new HarnessConfigError(`${field}.description must be a non-empty string.`, { field: `${field}.description` });
    }
    if (typeof agent.systemPrompt !== 'string' || agent.systemPrompt.trim() === '') {
      throw new HarnessConfigError(`${field}.systemPrompt must be a non-empty string.`, { field: `${field}.systemPrompt` });
    }
    if (agent.model === undefined && model === undefined && backend === undefined) {
      throw new HarnessConfigError(`${field} has no model: give the registry a model or backend, or the subagent a model.`, { field: `${field}.model` });
    }
    if (Array.isArray(agent.tools)) {
      for (const name of agent.tools as unknown[]) {
        if (typeof name !== 'string') throw new HarnessConfigError(`${field}.tools must list tool names.`, { field: `${field}.tools` });
        if (name === SUBAGENT_TOOL_NAME) continue;
        if (tools === undefined) {
          throw new HarnessConfigError(`${field}.tools names "${name}", but the registry has no tools to pick from.`, { field: `${field}.tools` });
        }
        if (Array.isArray(declared) && !declared.includes(name)) {
          throw new HarnessConfigError(`${field}.tools names "${name}", which the tools registry does not offer.`, { field: `${field}.tools` });
        }
      }
    } else if (agent.tools !== undefined && (typeof agent.tools.listAvailable !== 'function' || typeof agent.tools.execute !== 'function')) {
      throw new HarnessConfigError(`${field}.tools must be an array of tool names or a tool registry.`, { field: `${field}.tools` });
    }
    if (agent.limits !== undefined && (typeof agent.limits !== 'object' || agent.limits === null)) {
      throw new HarnessConfigError(`${field}.limits must be an object.`, { field: `${field}.limits` });
    }
    byName.set(agent.name, agent);
  });
  return { ...options, byName, maxDepth };
}

const taskInput = /* @__PURE__ */ checkedInput(
  {
    properties: {
      subagent: { type: 'string', description: 'Name of the subagent to delegate to.' },
      prompt: { type: 'string', minLength: 1, maxLength: MAX_PROMPT_CHARS, description: 'The complete task: the subagent sees nothing else of this conversation.' },
    },
    required: ['subagent', 'prompt'],
  },
  () => z.object({ subagent: z.string(), prompt: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_PROMPT_CHARS)) }),
);

function buildRegistry(options: CheckedOptions, depth: number): HarnessToolRegistry & { readonly toolNames: readonly string[] } {
  const definition: HarnessToolDefinition = {
    name: SUBAGENT_TOOL_NAME,
    description:
      'Delegate a self-contained task to a subagent and get its final answer. Subagents:\n' +
      [...options.byName.values()].map((agent) => `- ${agent.name}: ${agent.description}`).join('\n'),
    inputSchema: taskInput.jsonSchema,
  };
  return {
    toolNames: Object.freeze([SUBAGENT_TOOL_NAME]),
    listAvailable(input) {
      const allowed = input?.allowedToolNames;
      return Promise.resolve(allowed === undefined || allowed.includes(SUBAGENT_TOOL_NAME) ? [definition] : []);
    },
    async execute(call, context) {
      if (call.name !== SUBAGENT_TOOL_NAME) return errorResult(call, { code: 'tool_unavailable', message: `There is no tool named "${call.name}".`, retryable: true });
      const parsed = taskInput.validate!(call.input) as { value: { subagent: string; prompt: string } } | { issues: { message: string; path: (string | number)[] }[] };
      if (!('value' in parsed)) {
        return errorResult(call, {
          code: 'invalid_input',
          message: `Invalid input for task: ${parsed.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')}.`,
          retryable: true,
        });
      }
      const agent = options.byName.get(parsed.value.subagent);
      if (agent === undefined) {
        return errorResult(call, {
          code: 'unknown_subagent',
          message: `There is no subagent named "${parsed.value.subagent}". Subagents: ${[...options.byName.keys()].join(', ')}.`,
          retryable: true,
        });
      }
      try {
        return await runTask(options, depth, agent, parsed.value.prompt, call, context);
      } catch (error) {
        if (context.signal.aborted) throw error;
        return errorResult(call, { code: 'subagent_failed', message: error instanceof Error ? error.message : String(error), retryable: true });
      }
    },
  };
}

async function runTask(
  options: CheckedOptions,
  depth: number,
  agent: SubagentDefinition,
  prompt: string,
  call: HarnessToolCall,
  context: HarnessToolExecutionContext,
): Promise<HarnessToolResult> {
  const { state, turn } = context;
  const key = `${STATE_PREFIX}${call.id}`;
  const stored = readPaused(state?.get(key), agent.name);
  const harness = createHarness(childConfig(options, depth, agent, context));
  let result: HarnessResult;
  let reported: HarnessAggregateUsage | undefined;
  if (stored !== undefined) {
    const resolution = childResolution(stored, call.id, turn?.resolution);
    // Not answered by this resume (another call's pause was): ask again, the child untouched.
    if (resolution === undefined) return pauseAgain(call, stored, turn);
    reported = stored.usage;
    result = await runChild(
      () => harness.resumeTurn(stored.continuation, resolution, { signal: context.signal }),
      () => harness.streamResumeTurn(stored.continuation, resolution, { signal: context.signal }),
      turn,
    );
  } else {
    const input = childInput(agent, prompt, call, context);
    result = await runChild(
      () => harness.runTurn(input, { signal: context.signal }),
      () => harness.streamTurn(input, { signal: context.signal }),
      turn,
    );
  }
  const usage = usageDelta(result.usage, reported);
  const base = { subagent: agent.name, outcome: result.outcome, stopReason: result.stopReason };
  if (result.outcome === 'awaiting_approval' || result.outcome === 'needs_clarification') {
    if (state === undefined || turn === undefined || result.continuation === undefined) {
      state?.set(key, undefined);
      return errorResult(call, {
        code: 'subagent_pause_unsupported',
        message: `Subagent ${agent.name} needs ${result.outcome === 'awaiting_approval' ? 'approval' : 'an answer'}, but this turn cannot pause for it (run the task tool through createHarness with a model).`,
        retryable: false,
      }, usage);
    }
    const paused: PausedTask = {
      subagent: agent.name,
      continuation: result.continuation,
      usage: result.usage,
      requestIds: (result.continuation.state.approvals ?? []).map((request) => request.id),
    };
    const written = state.set(key, paused);
    if (!written.ok) {
      state.set(key, undefined);
      return errorResult(call, { code: 'subagent_pause_too_large', message: `Subagent ${agent.name} paused, but its state could not be kept: ${written.reason}. Give it a smaller task.`, retryable: true }, usage);
    }
    pauseParent(call, paused, turn);
    return { callId: call.id, toolName: call.name, status: 'success', output: `Subagent ${agent.name} paused (${result.outcome}).`, structuredOutput: base, usage };
  }
  state?.set(key, undefined);
  const text = result.assistantMessage?.text ?? '';
  const childCounts = { modelCalls: result.usage.modelCalls, toolCalls: result.usage.toolCalls };
  if (result.outcome === 'completed') {
    return { callId: call.id, toolName: call.name, status: 'success', output: text, structuredOutput: { ...base, text }, usage, metadata: childCounts };
  }
  const why = result.outcome === 'failed' ? (result.error?.message ?? result.stopReason) : `it stopped early (${result.stopReason})`;
  return errorResult(
    call,
    {
      code: result.outcome === 'failed' ? 'subagent_failed' : 'subagent_incomplete',
      message: `Subagent ${agent.name} did not finish: ${why}.${text === '' ? '' : ` Its last words: ${text}`}`,
      retryable: true,
      metadata: { ...base, ...childCounts },
    },
    usage,
  );
}

/**
 * Runs the child turn; when the parent turn is streamed, streams the child and forwards its answer
 * text as it comes (`context.turn.emitText`).
 */
async function runChild(run: () => Promise<HarnessResult>, stream: () => HarnessTurnStream, turn: HarnessToolTurnSeam | undefined): Promise<HarnessResult> {
  const emitText = turn?.emitText;
  if (emitText === undefined) return run();
  const events = stream();
  for await (const event of events) {
    if (event.type === 'text_delta') emitText(event.text);
  }
  return events.result;
}

function capped(configured: number, remaining: number | undefined): number {
  return remaining === undefined ? configured : Math.max(1, Math.min(configured, remaining));
}

function childConfig(options: CheckedOptions, depth: number, agent: SubagentDefinition, context: HarnessToolExecutionContext): HarnessConfig {
  const remainingMs = context.deadline === undefined ? undefined : Math.max(1, Math.floor(context.deadline - Date.now()));
  const configuredMs = agent.limits?.maxElapsedMs ?? 30_000;
  const remainingBudget = context.turn?.remainingBudget;
  const configuredBudget = agent.limits?.budgetLimit;
  const budgetLimit =
    remainingBudget === undefined ? configuredBudget : configuredBudget === undefined ? remainingBudget : Math.min(configuredBudget, remainingBudget);
  const limits: HarnessLimits = {
    ...agent.limits,
    maxElapsedMs: remainingMs === undefined ? configuredMs : Math.min(configuredMs, remainingMs),
    budgetLimit,
    // Never more steps or tool calls than the parent run has left (at least one, as limits must be positive).
    maxIterations: capped(agent.limits?.maxIterations ?? DEFAULT_TURN_LIMITS.maxIterations, context.turn?.remainingIterations),
    maxToolCalls: capped(agent.limits?.maxToolCalls ?? DEFAULT_TURN_LIMITS.maxToolCalls, context.turn?.remainingToolCalls),
    ...(context.state === undefined ? {} : { maxContinuationBytes: Math.max(1024, context.state.maxBytes) }),
  };
  const turn = context.turn;
  const trace: HarnessTraceSink | undefined =
    turn === undefined
      ? undefined
      : {
          emit(event: HarnessTraceEvent) {
            const forwarded: HarnessTraceEvent = { ...event, subagentPath: [agent.name, ...(event.subagentPath ?? [])] };
            turn.emitTrace(forwarded);
          },
        };
  // The child's continuation lives only inside the parent's tool state, which the parent's signed
  // continuation protects; the child harness is private to this call, so it seals unsigned.
  const shared = { tools: childTools(options, depth, agent), limits, trace, unsignedContinuations: 'allow' as const };
  const model = agent.model ?? options.model;
  return model !== undefined ? { ...shared, model } : { ...shared, backend: options.backend! };
}

function childTools(options: CheckedOptions, depth: number, agent: SubagentDefinition): HarnessToolRegistry | undefined {
  const { tools } = agent;
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return tools as HarnessToolRegistry;
  const names = tools as readonly string[];
  const nest = names.includes(SUBAGENT_TOOL_NAME) && depth < options.maxDepth;
  const plain = names.filter((name) => name !== SUBAGENT_TOOL_NAME);
  const parts: HarnessToolRegistry[] = [];
  if (plain.length > 0 && options.tools !== undefined) parts.push(allowListed(options.tools, plain));
  if (nest) parts.push(buildRegistry(options, depth + 1));
  return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : composeToolRegistries(...parts);
}

/** Exactly the allow-listed tools of `registry`: others are neither listed nor run. */
function allowListed(registry: HarnessToolRegistry, names: readonly string[]): HarnessToolRegistry {
  const allowed = new Set(names);
  return filterToolRegistry(registry, (name) => allowed.has(name), { toolNames: names, refusal: (name) => `This subagent cannot use "${name}".` });
}

function childInput(agent: SubagentDefinition, prompt: string, call: HarnessToolCall, context: HarnessToolExecutionContext): HarnessTurnInput {
  const names = Array.isArray(agent.tools)
    ? (agent.tools as readonly string[])
    : agent.tools === undefined
      ? []
      : undefined;
  return {
    // The parent's ids (its turn id too), so the nested turn's trace events belong to the parent turn.
    ...turnIdentity(context),
    message: { id: `${call.id}-prompt`, text: prompt, receivedAt: new Date().toISOString() },
    instructions: { systemPrompt: agent.systemPrompt },
    ...(names === undefined ? {} : { allowedToolNames: [...names] }),
  };
}

function pauseParent(call: HarnessToolCall, paused: PausedTask, turn: NonNullable<HarnessToolExecutionContext['turn']>): void {
  const state = paused.continuation.state;
  if (paused.continuation.type === 'approval') {
    turn.pause({
      type: 'approval',
      requests: (state.approvals ?? []).map((request) => ({
        ...request,
        id: `${call.id}/${request.id}`,
        summary: `[${paused.subagent}] ${request.summary}`,
        metadata: { ...request.metadata, subagent: paused.subagent, subagentRequestId: request.id, taskCallId: call.id },
      })),
    });
  } else {
    turn.pause({ type: 'clarification', question: state.question ?? `Subagent ${paused.subagent} needs more information.` });
  }
}

function pauseAgain(call: HarnessToolCall, paused: PausedTask, turn: HarnessToolExecutionContext['turn']): HarnessToolResult {
  if (turn === undefined) {
    return errorResult(call, { code: 'subagent_pause_unsupported', message: 'This turn cannot resume a paused subagent.', retryable: false });
  }
  pauseParent(call, paused, turn);
  return { callId: call.id, toolName: call.name, status: 'success', output: `Subagent ${paused.subagent} is still paused.` };
}

/** The child's resolution from the parent's, or `undefined` when the parent's does not answer it. */
function childResolution(paused: PausedTask, callId: string, resolution: HarnessToolResumeResolution | undefined): HarnessResumeResolution | undefined {
  if (resolution === undefined) return undefined;
  if (paused.continuation.type === 'clarification' && resolution.type === 'clarification') return { type: 'clarification', answer: resolution.answer };
  if (paused.continuation.type !== 'approval' || resolution.type !== 'approval') return undefined;
  const decisions: Record<string, 'approved' | 'rejected'> = Object.create(null) as Record<string, 'approved' | 'rejected'>;
  for (const id of paused.requestIds) {
    const decision = Object.hasOwn(resolution.decisions, `${callId}/${id}`) ? resolution.decisions[`${callId}/${id}`] : undefined;
    if (decision !== 'approved' && decision !== 'rejected') return undefined;
    decisions[id] = decision;
  }
  return { type: 'approval', decisions };
}

/** A stored paused task, read defensively (it comes back from a continuation). */
function readPaused(value: unknown, subagent: string): PausedTask | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const paused = value as PausedTask;
  if (paused.subagent !== subagent || typeof paused.continuation !== 'object' || paused.continuation === null) return undefined;
  if (!Array.isArray(paused.requestIds) || typeof paused.usage !== 'object' || paused.usage === null) return undefined;
  return paused;
}

function usageDelta(total: HarnessAggregateUsage, before: HarnessAggregateUsage | undefined): HarnessUsage {
  const delta = (now: number | undefined, then: number | undefined) => Math.max(0, (now ?? 0) - (then ?? 0));
  return {
    inputTokens: delta(total.totalInputTokens, before?.totalInputTokens),
    outputTokens: delta(total.totalOutputTokens, before?.totalOutputTokens),
    costUnits: delta(total.totalCostUnits, before?.totalCostUnits),
    ...(total.totalCachedInputTokens === undefined ? {} : { cachedInputTokens: delta(total.totalCachedInputTokens, before?.totalCachedInputTokens) }),
    ...(total.totalReasoningTokens === undefined ? {} : { reasoningTokens: delta(total.totalReasoningTokens, before?.totalReasoningTokens) }),
  };
}

function errorResult(call: HarnessToolCall, error: HarnessToolError, usage?: HarnessUsage): HarnessToolResult {
  return { callId: call.id, toolName: call.name, status: 'error', error, ...(usage === undefined ? {} : { usage }) };
}
