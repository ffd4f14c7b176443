import type { ExecutionStreamEvent } from '../../execution/types.js';
import { isRecord } from '../../shared/is-record.js';
import { toolActivityKind } from '../tool-activity-kind.js';
import { jsonLineObject } from './json-lines.js';

/**
 * A reader of `pi -p --mode json` lines: assistant `text_delta`s as they arrive, and each
 * `tool_execution_start` / `tool_execution_end` pair as tool activity (the bash tool with its command).
 */
export function createPiStreamReader(): (line: string) => ExecutionStreamEvent[] {
  return (line) => {
    const event = jsonLineObject(line);
    if (event === undefined) return [];
    const type = event['type'];
    if (type === 'message_update') {
      const update = event['assistantMessageEvent'];
      return isRecord(update) && update['type'] === 'text_delta' && typeof update['delta'] === 'string' && update['delta'] !== ''
        ? [{ type: 'text_delta', text: update['delta'] }]
        : [];
    }
    if ((type !== 'tool_execution_start' && type !== 'tool_execution_end') || typeof event['toolCallId'] !== 'string') return [];
    const name = typeof event['toolName'] === 'string' ? event['toolName'] : 'tool';
    const kind = toolActivityKind(name);
    if (type === 'tool_execution_end') {
      return [{ type: 'tool_activity', phase: 'finished', toolCallId: event['toolCallId'], name, kind, status: event['isError'] === true ? 'failed' : 'succeeded' }];
    }
    const args = isRecord(event['args']) ? event['args'] : {};
    return [
      {
        type: 'tool_activity',
        phase: 'started',
        toolCallId: event['toolCallId'],
        name,
        kind,
        ...(kind === 'command' && typeof args['command'] === 'string' ? { command: args['command'] } : {}),
      },
    ];
  };
}
