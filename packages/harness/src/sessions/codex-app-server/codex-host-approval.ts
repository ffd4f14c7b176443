import { hostVerdict, hostVerdictNote } from '../internal/host-verdict.js';
import type { CodexCall } from './codex-execution-result.js';
import type { CodexPendingApproval, CodexTurn } from './codex-turn.js';

/** Answers a pending approval in the live session when the host's rules decide it; false when they leave it to a person. */
export function answeredByHost(call: CodexCall, turn: CodexTurn, approval: CodexPendingApproval): boolean {
  if (call.options.onPermissionRequest === undefined) return false;
  const verdict = hostVerdict(call.options, {
    title: approval.title,
    toolName: approval.kind === 'command' ? 'commandExecution' : 'fileChange',
    kind: approval.kind === 'command' ? 'command' : 'edit',
    ...(approval.command === undefined ? {} : { command: approval.command }),
  });
  if (verdict === 'ask') return false;
  call.notes.push(hostVerdictNote(verdict, approval.title));
  turn.answer(approval.approvalKey, verdict === 'approve' ? 'accept' : 'decline');
  return true;
}
