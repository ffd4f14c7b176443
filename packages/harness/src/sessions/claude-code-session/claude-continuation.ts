import type { ExecutionContinuation } from '../../execution/types.js';

/** The backend id of `ClaudeCodeSessionExecutionAdapter`. */
export const CLAUDE_CODE_SESSION_BACKEND_ID = 'claude-code-session';

/** The continuation kind of its sessions. */
export const CLAUDE_CODE_SESSION_KIND = 'claude-code-session.session';

export const LABEL = 'Claude Code session';

/** Who a Claude session backend is in results and continuations: Claude Code's process, or the Agent SDK. */
export interface ClaudeSessionIdentity {
  backendId: string;
  kind: string;
  label: string;
}

/** The identity of `ClaudeCodeSessionExecutionAdapter`. */
export const CLAUDE_CODE_SESSION_IDENTITY: ClaudeSessionIdentity = /* @__PURE__ */ Object.freeze({
  backendId: CLAUDE_CODE_SESSION_BACKEND_ID,
  kind: CLAUDE_CODE_SESSION_KIND,
  label: LABEL,
});
const MAX_SESSION_ID_LENGTH = 256;

/** Why an incoming continuation cannot be used (another kind, no or an unusable session id), if it cannot. */
export function continuationProblem(incoming: ExecutionContinuation | undefined, identity: ClaudeSessionIdentity = CLAUDE_CODE_SESSION_IDENTITY): string | undefined {
  if (incoming === undefined) return undefined;
  const { kind, label } = identity;
  if (incoming.kind !== undefined && incoming.kind !== kind) {
    return `${label}: the continuation is a ${JSON.stringify(incoming.kind)}, not a ${kind}.`;
  }
  const id = incoming.continuationId;
  if (id === undefined) return `${label}: the continuation has no session id.`;
  if (id === '' || id.length > MAX_SESSION_ID_LENGTH || id.startsWith('-') || /[\s\0]/.test(id)) {
    return `${label}: the continuation's session id is not valid.`;
  }
  return undefined;
}

/** The session's continuation: its Claude session id (the pool key until `system/init` names it) and the cost so far. */
export function continuationOf(
  sessionId: string | undefined,
  context: { key: string; incoming: ExecutionContinuation | undefined },
  totalCostUsd?: number,
  identity: ClaudeSessionIdentity = CLAUDE_CODE_SESSION_IDENTITY,
): ExecutionContinuation {
  const previousCost = context.incoming?.state?.['totalCostUsd'];
  const cost = totalCostUsd ?? (typeof previousCost === 'number' && Number.isFinite(previousCost) ? previousCost : 0);
  return { kind: identity.kind, continuationId: sessionId ?? context.key, state: { totalCostUsd: cost } };
}
