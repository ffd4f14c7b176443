import * as v from '../../shared/validation/index.js';
import { createHarness } from '../../core/create-harness.js';
import type { HarnessResult } from '../../core/types/result.js';
import type {
  HarnessToolCall,
  HarnessToolDefinition,
  HarnessToolExecutionContext,
  HarnessToolRegistry,
  HarnessToolResult,
} from '../../shared/types/tools.js';
import type { HarnessAggregateUsage } from '../../shared/types/usage.js';
import { composeToolRegistries } from '../compose-tool-registries.js';
import { checkedInput } from '../checked-input.js';
import { SUBAGENT_TOOL_NAME, type SubagentDefinition, type SubagentToolOptions } from './subagent-definition.js';
import { checkOptions, type CheckedOptions } from './internal/check-subagent-options.js';
import { allowListed, childConfig, childInput, runChild } from './internal/child-turn.js';
import { childResolution, pauseAgain, pauseParent, readPaused, STATE_PREFIX, type PausedTask } from './internal/paused-subagent-task.js';
import { errorResult, usageDelta } from './internal/subagent-results.js';

const MAX_PROMPT_CHARS = 20_000;

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

const taskInput = /* @__PURE__ */ checkedInput(
  {
    properties: {
      subagent: { type: 'string', description: 'Name of the subagent to delegate to.' },
      prompt: { type: 'string', minLength: 1, maxLength: MAX_PROMPT_CHARS, description: 'The complete task: the subagent sees nothing else of this conversation.' },
    },
    required: ['subagent', 'prompt'],
  },
  () => v.object({ subagent: v.string(), prompt: v.string().check(v.trim(), v.minLength(1), v.maxLength(MAX_PROMPT_CHARS)) }),
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
  const harness = createHarness(childConfig(options, agent, context, childTools(options, depth, agent)));
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
