import type { AcpOpenPermission } from './acp-session.js';

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
