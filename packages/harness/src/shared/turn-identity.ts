/** Who a turn is for: the ids every trace event and nested turn carries. */
export interface TurnIdentity {
  assistantId: string;
  turnId: string;
  workspaceId?: string;
  sessionId?: string;
  userId?: string;
  threadId?: string;
}

/** The identity fields of `source`, the optional ones only when set. */
export function turnIdentity(source: {
  assistantId: string;
  turnId: string;
  workspaceId?: string | undefined;
  sessionId?: string | undefined;
  userId?: string | undefined;
  threadId?: string | undefined;
}): TurnIdentity {
  return {
    assistantId: source.assistantId,
    turnId: source.turnId,
    ...(source.workspaceId === undefined ? {} : { workspaceId: source.workspaceId }),
    ...(source.sessionId === undefined ? {} : { sessionId: source.sessionId }),
    ...(source.userId === undefined ? {} : { userId: source.userId }),
    ...(source.threadId === undefined ? {} : { threadId: source.threadId }),
  };
}
