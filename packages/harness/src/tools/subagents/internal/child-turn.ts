import { turnIdentity } from '../../../shared/turn-identity.js';
import { DEFAULT_TURN_LIMITS } from '../../../core/limits.js';
import type { HarnessConfig, HarnessLimits } from '../../../core/types/config.js';
import type { HarnessTraceEvent, HarnessTraceSink } from '../../../core/types/trace.js';
import type { HarnessResult } from '../../../core/types/result.js';
import type { HarnessTurnStream } from '../../../core/types/runtime.js';
import type { HarnessToolCall, HarnessToolExecutionContext, HarnessToolRegistry, HarnessToolTurnSeam } from '../../../shared/types/tools.js';
import type { HarnessTurnInput } from '../../../shared/types/turn-input.js';
import { filterToolRegistry } from '../../filter-tool-registry.js';
import type { SubagentDefinition } from '../subagent-definition.js';
import type { CheckedOptions } from './check-subagent-options.js';

/**
 * Runs the child turn; when the parent turn is streamed, streams the child and forwards its answer
 * text as it comes (`context.turn.emitText`).
 */
export async function runChild(run: () => Promise<HarnessResult>, stream: () => HarnessTurnStream, turn: HarnessToolTurnSeam | undefined): Promise<HarnessResult> {
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

/**
 * The child harness's config: its `tools`, limits capped by what the parent has left, and a trace
 * sink forwarding to the parent's with `subagentPath`.
 */
export function childConfig(
  options: CheckedOptions,
  agent: SubagentDefinition,
  context: HarnessToolExecutionContext,
  tools: HarnessToolRegistry | undefined,
): HarnessConfig {
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
  const shared = { tools, limits, trace, unsignedContinuations: 'allow' as const };
  const model = agent.model ?? options.model;
  return model !== undefined ? { ...shared, model } : { ...shared, backend: options.backend! };
}

/** Exactly the allow-listed tools of `registry`: others are neither listed nor run. */
export function allowListed(registry: HarnessToolRegistry, names: readonly string[]): HarnessToolRegistry {
  const allowed = new Set(names);
  return filterToolRegistry(registry, (name) => allowed.has(name), { toolNames: names, refusal: (name) => `This subagent cannot use "${name}".` });
}

/** The child turn's input: the parent's ids, the task as its message, its system prompt and allow-list. */
export function childInput(agent: SubagentDefinition, prompt: string, call: HarnessToolCall, context: HarnessToolExecutionContext): HarnessTurnInput {
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
