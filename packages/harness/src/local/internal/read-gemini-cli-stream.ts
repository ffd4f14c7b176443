import type { ExecutionStreamEvent } from '../../execution/types.js';

import { jsonLineObject } from './json-lines.js';
import { toolActivityKind } from '../tool-activity-kind.js';
import { isRecord } from '../../shared/is-record.js';

/** Tool names remembered per run to label `finished` events; more are labelled `tool`. */
const MAX_REMEMBERED_TOOLS = 1_000;

/**
 * A reader of `gemini --output-format stream-json` lines: assistant `message` deltas and
 * `tool_use` / `tool_result` pairs (`run_shell_command` with its command).
 */
export function createGeminiCliStreamReader(): (line: string) => ExecutionStreamEvent[] {
  const toolNames = new Map<string, string>();
  return (line) => {
    const event = jsonLineObject(line);
    if (event === undefined) return [];
    if (event['type'] === 'message' && event['role'] === 'assistant' && typeof event['content'] === 'string' && event['content'] !== '') {
      return [{ type: 'text_delta', text: event['content'] }];
    }
    if (event['type'] === 'tool_use' && typeof event['tool_id'] === 'string' && typeof event['tool_name'] === 'string') {
      const { tool_id: id, tool_name: name } = event as { tool_id: string; tool_name: string };
      if (toolNames.size < MAX_REMEMBERED_TOOLS) toolNames.set(id, name);
      const parameters = isRecord(event['parameters']) ? event['parameters'] : {};
      const kind = toolActivityKind(name);
      return [
        {
          type: 'tool_activity',
          phase: 'started',
          toolCallId: id,
          name,
          kind,
          ...(kind === 'command' && typeof parameters['command'] === 'string' ? { command: parameters['command'] } : {}),
        },
      ];
    }
    if (event['type'] === 'tool_result' && typeof event['tool_id'] === 'string') {
      const id = event['tool_id'];
      const name = toolNames.get(id) ?? 'tool';
      toolNames.delete(id);
      return [
        { type: 'tool_activity', phase: 'finished', toolCallId: id, name, kind: toolActivityKind(name), status: event['status'] === 'success' ? 'succeeded' : 'failed' },
      ];
    }
    return [];
  };
}
