/** Who a turn is for: the ids every trace event and nested turn carries. */
export interface TurnIdentity {
  assistantId: string;
  turnId: string;
  workspaceId?: string;
  sessionId?: string;
  userId?: string;
  threadId?: string;
}

/** Anything that carries a turn's ids (a turn input, a request, a tool context); the optional ones may be `undefined`. */
export type TurnIdentitySource = Pick<TurnIdentity, 'assistantId' | 'turnId'> & {
  [Key in Exclude<keyof TurnIdentity, 'assistantId' | 'turnId'>]?: string | undefined;
};

/** The identity fields of `source`, the optional ones only when set. */
export function turnIdentity(source: TurnIdentitySource): TurnIdentity {
  return {
    assistantId: source.assistantId,
    turnId: source.turnId,
    ...(source.workspaceId === undefined ? {} : { workspaceId: source.workspaceId }),
    ...(source.sessionId === undefined ? {} : { sessionId: source.sessionId }),
    ...(source.userId === undefined ? {} : { userId: source.userId }),
    ...(source.threadId === undefined ? {} : { threadId: source.threadId }),
  };
}
