import type { HarnessToolCall, HarnessToolDefinition } from '../../shared/types/tools.js';
import type { RunEnding } from './finish-run.js';
import type { RunContext } from './run-context.js';
import { rejectedToolResult, skippedToolResult, unknownToolResult } from '../tool-results.js';
import { noDecisions, pauseForApproval, requiresApproval, type ApprovalDecisions } from '../tool-approval.js';
import { executeWindow, type CarriedCallResume, type ExecutedCall, type PlannedCall } from './execute-tool-window.js';
import { pauseForTools } from './pause-for-tools.js';
import { recordInterrupted, recordResult, recordWithoutHooks } from './record-tool-result.js';

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
  run.stepResultSignatures?.clear();
  const toolsByName = toolsByNameOf(run);
  // Plain loops, not `find`/`filter`/`entries()` with closures and iterators: this runs every tool step.
  const reported = run.reportedUnknownTools;
  if (reported !== undefined) {
    for (const call of calls) {
      if (!toolsByName.has(call.name) && reported.has(call.name)) {
        return {
          stopReason: 'tool_unavailable',
          metadata: {
            toolName: call.name,
            error: { code: 'tool_unavailable', message: `The model asked again for the unknown tool "${call.name}".` },
          },
        };
      }
    }
  }

  let needApproval: HarnessToolCall[] | undefined;
  for (const call of calls) {
    const tool = toolsByName.get(call.name);
    if (tool !== undefined && !decisions.has(call.id) && requiresApproval(tool, call)) (needApproval ??= []).push(call);
  }
  if (needApproval !== undefined) return pauseForApproval(run, calls, needApproval);

  let budget = run.services.limits.maxToolCalls - run.counters.toolCallCount;
  const planned: PlannedCall[] = [];
  const overBudget: HarnessToolCall[] = [];
  for (let position = 0; position < calls.length; position += 1) {
    const call = calls[position]!;
    if (!toolsByName.has(call.name)) {
      (run.reportedUnknownTools ??= new Set()).add(call.name);
      planned.push({ call, kind: 'immediate', result: unknownToolResult(call, [...toolsByName.keys()]) });
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
    if (run.turnSignal.interruptReason() === undefined && anyPaused(executed)) {
      return pauseForTools(run, executed, planned.slice(index), overBudget);
    }
    for (let position = 0; position < executed.length; position += 1) {
      const { call, result, latencyMs } = executed[position]!;
      const interrupted = run.turnSignal.interruptReason();
      let ending = interrupted === undefined ? recordResult(run, call, result, latencyMs) : recordInterrupted(run, result, latencyMs, interrupted);
      if (ending instanceof Promise) ending = await ending;
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

function anyPaused(executed: readonly ExecutedCall[]): boolean {
  for (const entry of executed) if (entry.pause !== undefined) return true;
  return false;
}

/** The run's available tools by name, made on its first tool step (the list is fixed for the run). */
function toolsByNameOf(run: RunContext): ReadonlyMap<string, HarnessToolDefinition> {
  if (run.toolsByName === undefined || run.toolsByName.tools !== run.availableTools) {
    run.toolsByName = { tools: run.availableTools, byName: new Map(run.availableTools.map((tool) => [tool.name, tool])) };
  }
  return run.toolsByName.byName;
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
