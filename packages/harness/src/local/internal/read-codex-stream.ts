import type { ExecutionPlanEntry, ExecutionStreamEvent, ExecutionToolActivityKind } from '../../execution/types.js';

import { jsonLineObject } from './json-lines.js';
import { isRecord } from '../../shared/is-record.js';

const ITEM_KINDS = new Map<string, ExecutionToolActivityKind>([
  ['command_execution', 'command'],
  ['file_change', 'edit'],
  ['web_search', 'search'],
  ['mcp_tool_call', 'other'],
]);

/**
 * A reader of `codex exec --json` lines: each agent message as it completes (codex reports
 * whole messages, not token deltas), command executions, file changes, web searches and MCP
 * tool calls started and finished, and the to-do list as a plan.
 */
export function createCodexStreamReader(): (line: string) => ExecutionStreamEvent[] {
  return (line) => {
    const event = jsonLineObject(line);
    const type = event?.['type'];
    const item = isRecord(event?.['item']) ? event['item'] : undefined;
    if (item === undefined || (type !== 'item.started' && type !== 'item.updated' && type !== 'item.completed')) return [];
    const itemType = typeof item['type'] === 'string' ? item['type'] : '';
    if (itemType === 'agent_message') {
      return type === 'item.completed' && typeof item['text'] === 'string' && item['text'] !== '' ? [{ type: 'text_delta', text: item['text'] }] : [];
    }
    if (itemType === 'todo_list') {
      const entries = todoEntries(item['items']);
      return entries === undefined ? [] : [{ type: 'plan_update', entries }];
    }
    const kind = ITEM_KINDS.get(itemType);
    if (kind === undefined || typeof item['id'] !== 'string') return [];
    const phase = type === 'item.started' ? 'started' : type === 'item.updated' ? 'updated' : 'finished';
    return [
      {
        type: 'tool_activity',
        phase,
        toolCallId: item['id'],
        name: itemType === 'mcp_tool_call' ? mcpName(item) : itemType,
        kind,
        ...(typeof item['command'] === 'string' ? { command: item['command'] } : {}),
        ...(phase === 'finished' ? { status: finishedStatus(item) } : {}),
      },
    ];
  };
}

function finishedStatus(item: Record<string, unknown>): 'succeeded' | 'failed' | 'rejected' {
  if (item['status'] === 'declined') return 'rejected';
  if (item['status'] === 'failed') return 'failed';
  if (typeof item['exit_code'] === 'number' && item['exit_code'] !== 0) return 'failed';
  return 'succeeded';
}

function mcpName(item: Record<string, unknown>): string {
  const server = typeof item['server'] === 'string' ? item['server'] : 'mcp';
  return typeof item['tool'] === 'string' ? `${server}.${item['tool']}` : server;
}

function todoEntries(items: unknown): ExecutionPlanEntry[] | undefined {
  if (!Array.isArray(items)) return undefined;
  return items
    .filter((entry): entry is Record<string, unknown> => isRecord(entry) && typeof entry['text'] === 'string')
    .map((entry) => ({ content: entry['text'] as string, status: entry['completed'] === true ? 'completed' : 'pending' }));
}
