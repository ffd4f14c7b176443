import type { ExecutionOptions } from '../../execution/types.js';
import { toolActivityKind } from '../../local/tool-activity-kind.js';
import { hostVerdict, hostVerdictNote } from '../internal/host-verdict.js';
import type { ClaudePermissionAnswer } from './claude-live-session.js';
import type { ClaudePermissionRequest } from './read-claude-line.js';

/** What a permission request is about: its activity kind, its command (for shell tools) and a title. */
export function describeRequest(request: ClaudePermissionRequest): { kind: ReturnType<typeof toolActivityKind>; command: string | undefined; title: string } {
  const kind = toolActivityKind(request.toolName);
  const command = kind === 'command' && typeof request.input['command'] === 'string' ? request.input['command'] : undefined;
  return { kind, command, title: command ?? request.blockedPath ?? request.description ?? request.toolName };
}

/**
 * The answer the host's rules give a permission request, or `undefined` when they leave it to a
 * person. An answered request is noted in `notes`.
 */
export function hostAnswer(
  options: ExecutionOptions,
  notes: { notes?: string[] },
  request: ClaudePermissionRequest,
  rejectionMessage: string,
): ClaudePermissionAnswer | undefined {
  if (options.onPermissionRequest === undefined) return undefined;
  const { kind, command, title } = describeRequest(request);
  const verdict = hostVerdict(options, { title, toolName: request.toolName, kind, ...(command === undefined ? {} : { command }) });
  if (verdict === 'ask') return undefined;
  (notes.notes ??= []).push(hostVerdictNote(verdict, title));
  return verdict === 'approve' ? { behavior: 'allow', always: false } : { behavior: 'deny', message: rejectionMessage };
}
