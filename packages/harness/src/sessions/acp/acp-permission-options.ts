import type { AcpApprovalState } from './acp-continuation.js';
import type { AcpOpenPermission } from './acp-session.js';

/** Whether the engine's open request is the one a paused turn's continuation names. */
export function samePermission(permission: AcpOpenPermission, state: AcpApprovalState): boolean {
  return permission.id === state.permissionId && permission.params.toolCall.toolCallId === state.toolCallId;
}

/** The engine's option for a decision, or `undefined` (answered `cancelled`) when it offers none that fits. */
export function chooseOption(permission: AcpOpenPermission, decision: 'approved' | 'rejected', scope: 'once' | 'session'): string | undefined {
  const preference =
    decision === 'rejected' ? ['reject_once', 'reject_always'] : scope === 'session' ? ['allow_always', 'allow_once'] : ['allow_once'];
  for (const kind of preference) {
    const option = permission.params.options.find((candidate) => candidate.kind === kind);
    if (option !== undefined) return option.optionId;
  }
  return undefined;
}
