import type { ExecutionContinuation, ExecutionOptions, ExecutionRequest, ExecutionStreamEvent } from '../../execution/types.js';
import type { ClaudeLiveSession } from './claude-live-session.js';

/** The backend id of {@link ClaudeCodeSessionAdapter}. */
export const CLAUDE_CODE_SESSION_BACKEND_ID = 'claude-code-session';

/** The continuation kind of its sessions. */
export const CLAUDE_CODE_SESSION_KIND = 'claude-code-session.session';

export const LABEL = 'Claude Code session';
const MAX_SESSION_ID_LENGTH = 256;

/** Where a call of `execute` is in its session, for the result. */
export interface TurnContext {
  request: ExecutionRequest;
  options: ExecutionOptions;
  key: string;
  session?: ClaudeLiveSession;
  incoming: ExecutionContinuation | undefined;
  startedAt: number;
  firstEventMs?: number | undefined;
  engine?: { reused: boolean; restarted: boolean; resumedWithFlag: boolean };
  /** Permission requests the host's rules answered, as trace notes. */
  notes?: string[];
}

/** Passes a stream event to the turn's listener (noting when the first came); a throwing listener is ignored. */
export function emitTo(turn: TurnContext, event: ExecutionStreamEvent): void {
  turn.firstEventMs ??= Date.now() - turn.startedAt;
  try {
    turn.options.onEvent?.(event);
  } catch {
    // A listener's failure never breaks the turn.
  }
}

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
