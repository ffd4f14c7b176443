// The lines a host writes to a live `claude -p --input-format stream-json` session, shaped as
// recorded from Claude Code 2.1.332 (shared/reference/engine-protocol-facts.md).

/** A user turn (or follow-up input) for the session. */
export function userLine(text: string): string {
  return JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text }] }, parent_tool_use_id: null, session_id: '' });
}

/** Asks Claude to stop the running turn; it ends with a `result` of subtype `error_during_execution`. */
export function interruptLine(requestId: string): string {
  return JSON.stringify({ type: 'control_request', request_id: requestId, request: { subtype: 'interrupt' } });
}

/** Allows a `can_use_tool` request; `updatedPermissions` (Claude's suggestions) make it "allow always" for the session. */
export function allowLine(requestId: string, input: Record<string, unknown>, updatedPermissions?: readonly Record<string, unknown>[]): string {
  const response = { behavior: 'allow', updatedInput: input, ...(updatedPermissions === undefined ? {} : { updatedPermissions }) };
  return JSON.stringify({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } });
}

/** Denies a `can_use_tool` request; the model receives `message` as the tool's result. */
export function denyLine(requestId: string, message: string): string {
  return JSON.stringify({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response: { behavior: 'deny', message } } });
}

/** Refuses a control request the host does not serve (hooks, MCP messages, ...). */
export function controlErrorLine(requestId: string, error: string): string {
  return JSON.stringify({ type: 'control_response', response: { subtype: 'error', request_id: requestId, error } });
}
