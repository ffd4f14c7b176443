import type { ExecutionStreamEvent } from '../../execution/types.js';
import { isRecord } from '../../shared/is-record.js';
import { isDenied, toolStart } from '../parse-copilot-output.js';
import { toolActivityKind } from '../tool-activity-kind.js';
import { jsonLineObject } from './json-lines.js';

/** Tool names remembered per run to label `finished` events; more are labelled `tool`. */
const MAX_REMEMBERED_TOOLS = 1_000;

/**
 * A reader of `copilot -p --output-format json` lines: `assistant.message_delta` text as it
 * arrives, and `tool.execution_start` / `tool.execution_complete` as tool activity. A call Copilot
 * refused because no one could approve it (`error.code: "denied"`) finishes `rejected`.
 */
export function createCopilotStreamReader(): (line: string) => ExecutionStreamEvent[] {
  const names = new Map<string, string>();
  return (line) => {
    const event = jsonLineObject(line);
    const data = isRecord(event?.['data']) ? event['data'] : undefined;
    if (event === undefined || data === undefined) return [];
    const type = event['type'];
    if (type === 'assistant.message_delta') {
      return typeof data['deltaContent'] === 'string' && data['deltaContent'] !== '' ? [{ type: 'text_delta', text: data['deltaContent'] }] : [];
    }
    const id = typeof data['toolCallId'] === 'string' ? data['toolCallId'] : undefined;
    if (id === undefined) return [];
    if (type === 'tool.execution_start') {
      const { name, command } = toolStart(data);
      if (names.size < MAX_REMEMBERED_TOOLS) names.set(id, name);
      const kind = toolActivityKind(name);
      return [{ type: 'tool_activity', phase: 'started', toolCallId: id, name, kind, ...(kind === 'command' && command !== undefined ? { command } : {}) }];
    }
    if (type === 'tool.execution_complete') {
      const name = names.get(id) ?? 'tool';
      names.delete(id);
      const status = data['success'] === true ? 'succeeded' : isDenied(data) ? 'rejected' : 'failed';
      return [{ type: 'tool_activity', phase: 'finished', toolCallId: id, name, kind: toolActivityKind(name), status }];
    }
    return [];
  };
}
