import { toolActivityKind } from '../../local/tool-activity-kind.js';
import type { ClaudePermissionRequest } from './read-claude-line.js';

/** What a permission request is about: its activity kind, its command (for shell tools) and a title. */
export function describeRequest(request: ClaudePermissionRequest): { kind: ReturnType<typeof toolActivityKind>; command: string | undefined; title: string } {
  const kind = toolActivityKind(request.toolName);
  const command = kind === 'command' && typeof request.input['command'] === 'string' ? request.input['command'] : undefined;
  return { kind, command, title: command ?? request.blockedPath ?? request.description ?? request.toolName };
}
