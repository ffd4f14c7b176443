import type { SessionCallContext, SessionPlacement } from './session-protocol.js';

/**
 * The usual placement: one live session per assistant and `sessionId` (else `threadId`); without
 * either, one for this turn only. Outside text enters the key only through `JSON.stringify`.
 */
export function sessionPlacement({ request }: Omit<SessionCallContext, 'key'>): SessionPlacement {
  const sessionKey = request.sessionId ?? request.threadId;
  return {
    key: JSON.stringify([request.assistantId, sessionKey ?? `turn:${request.turnId}:${globalThis.crypto.randomUUID()}`]),
    ephemeral: sessionKey === undefined,
  };
}
