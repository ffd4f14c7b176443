import type { ExecutionContinuation } from '../../execution/types.js';

/** The backend id of `ClaudeCodeSessionExecutionAdapter`. */
export const CLAUDE_CODE_SESSION_BACKEND_ID = 'claude-code-session';

/** The continuation kind of its sessions. */
export const CLAUDE_CODE_SESSION_KIND = 'claude-code-session.session';

export const LABEL = 'Claude Code session';
const MAX_SESSION_ID_LENGTH = 256;

/** Why an incoming continuation cannot be used (another kind, no or an unusable session id), if it cannot. */
export function continuationProblem(incoming: ExecutionContinuation | undefined): string | undefined {
  if (incoming === undefined) return undefined;
  if (incoming.kind !== undefined && incoming.kind !== CLAUDE_CODE_SESSION_KIND) {
    return `${LABEL}: the continuation is a ${JSON.stringify(incoming.kind)}, not a ${CLAUDE_CODE_SESSION_KIND}.`;
  }
  const id = incoming.continuationId;
  if (id === undefined) return `${LABEL}: the continuation has no session id.`;
  if (id === '' || id.length > MAX_SESSION_ID_LENGTH || id.startsWith('-') || /[\s\0]/.test(id)) {
    return `${LABEL}: the continuation's session id is not valid.`;
  }
  return undefined;
}

/** The session's continuation: its Claude session id (the pool key until `system/init` names it) and the cost so far. */
export function continuationOf(sessionId: string | undefined, context: { key: string; incoming: ExecutionContinuation | undefined }, totalCostUsd?: number): ExecutionContinuation {
  const previousCost = context.incoming?.state?.['totalCostUsd'];
  const cost = totalCostUsd ?? (typeof previousCost === 'number' && Number.isFinite(previousCost) ? previousCost : 0);
  return { kind: CLAUDE_CODE_SESSION_KIND, continuationId: sessionId ?? context.key, state: { totalCostUsd: cost } };
}
