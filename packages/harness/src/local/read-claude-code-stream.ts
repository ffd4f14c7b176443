import type { ExecutionPlanEntry, ExecutionStreamEvent } from '../execution/types.js';

import { jsonLineObject } from './internal/json-lines.js';
import { toolActivityKind } from './tool-activity-kind.js';
import { isRecord } from '../shared/is-record.js';

/** Tool names remembered per run to label `finished` events; more are labelled `tool`. */
const MAX_REMEMBERED_TOOLS = 1_000;

/**
 * A reader of `claude -p --output-format stream-json --verbose [--include-partial-messages]`
 * lines, one per run: partial-message text deltas (else each whole assistant text), each built-in
 * tool call started (`tool_use`) and finished (`tool_result`), and `TodoWrite` lists as plans.
 */
export function createClaudeCodeStreamReader(): (line: string) => ExecutionStreamEvent[] {
  const toolNames = new Map<string, string>();
  let partialDeltas = 0;
  return (line) => {
    const event = jsonLineObject(line);
    if (event === undefined) return [];
    if (event['type'] === 'stream_event' && isRecord(event['event'])) {
      const inner = event['event'];
      const delta = isRecord(inner['delta']) ? inner['delta'] : undefined;
      if (inner['type'] === 'content_block_delta' && delta?.['type'] === 'text_delta' && typeof delta['text'] === 'string' && delta['text'] !== '') {
        partialDeltas += 1;
        return [{ type: 'text_delta', text: delta['text'] }];
      }
      return [];
    }
    const content = isRecord(event['message']) && Array.isArray(event['message']['content']) ? (event['message']['content'] as unknown[]) : [];
    if (event['type'] === 'assistant') {
      const streamed = partialDeltas > 0;
      partialDeltas = 0;
      return content.flatMap((block) => assistantBlock(block, streamed, toolNames));
    }
    if (event['type'] === 'user') return content.flatMap((block) => toolResult(block, toolNames));
    return [];
  };
}

function assistantBlock(block: unknown, streamed: boolean, toolNames: Map<string, string>): ExecutionStreamEvent[] {
  if (!isRecord(block)) return [];
  if (block['type'] === 'text' && typeof block['text'] === 'string' && block['text'] !== '') {
    return streamed ? [] : [{ type: 'text_delta', text: block['text'] }];
  }
  if (block['type'] !== 'tool_use' || typeof block['id'] !== 'string' || typeof block['name'] !== 'string') return [];
  const { id, name } = block as { id: string; name: string };
  if (toolNames.size < MAX_REMEMBERED_TOOLS) toolNames.set(id, name);
  const input = isRecord(block['input']) ? block['input'] : {};
  const kind = toolActivityKind(name);
  const events: ExecutionStreamEvent[] = [
    {
      type: 'tool_activity',
      phase: 'started',
      toolCallId: id,
      name,
      kind,
      ...(kind === 'command' && typeof input['command'] === 'string' ? { command: input['command'] } : {}),
    },
  ];
  const plan = name === 'TodoWrite' ? todoPlan(input['todos']) : undefined;
  if (plan !== undefined) events.push({ type: 'plan_update', entries: plan });
  return events;
}

function toolResult(block: unknown, toolNames: Map<string, string>): ExecutionStreamEvent[] {
  if (!isRecord(block) || block['type'] !== 'tool_result' || typeof block['tool_use_id'] !== 'string') return [];
  const id = block['tool_use_id'];
  const name = toolNames.get(id) ?? 'tool';
  toolNames.delete(id);
  return [
    {
      type: 'tool_activity',
      phase: 'finished',
      toolCallId: id,
      name,
      kind: toolActivityKind(name),
      status: block['is_error'] === true ? 'failed' : 'succeeded',
    },
  ];
}

function todoPlan(todos: unknown): ExecutionPlanEntry[] | undefined {
  if (!Array.isArray(todos)) return undefined;
  const entries: ExecutionPlanEntry[] = [];
  for (const todo of todos) {
    if (!isRecord(todo) || typeof todo['content'] !== 'string') continue;
    const status = todo['status'];
    entries.push({ content: todo['content'], status: status === 'in_progress' || status === 'completed' ? status : 'pending' });
  }
  return entries;
}
