import type { ExecutionResult } from '../../execution/types.js';
import { describeError } from '../../shared/describe-error.js';
import { encodeExecutionResultMessage } from '../../agent-relay/protocol/execution-result-message.js';
import type { ExecutionRequestMessage } from '../../agent-relay/protocol/message-types.js';
import { bridgeFailure } from './worker-results.js';

/**
 * The reply body for `message`: the result message, echoing the request's ids. A result that
 * cannot be encoded, or whose body would exceed `maxChars`, becomes a small `failed` /
 * `invalid_backend_output` result (keeping the continuation), passed through `decorate` like the
 * original, so the orchestrator is not left waiting for a body it would refuse.
 */
export function encodeReply(
  message: ExecutionRequestMessage,
  result: ExecutionResult,
  maxChars: number,
  decorate: (result: ExecutionResult) => ExecutionResult,
): string {
  const envelope = { requestId: message.requestId, turnId: message.turnId, threadId: message.threadId, sentAt: new Date().toISOString() };
  let problem: string;
  try {
    const text = encodeExecutionResultMessage({ ...envelope, executionResult: result });
    if (text.length <= maxChars) return text;
    problem = `The result has ${text.length} characters; the reply limit is ${maxChars}.`;
  } catch (error) {
    problem = `The result could not be encoded (${describeError(error)}).`;
  }
  const failure = decorate(bridgeFailure(result.backendId, 'invalid_backend_output', problem, false));
  return encodeExecutionResultMessage({
    ...envelope,
    executionResult: { ...failure, ...(result.continuation === undefined ? {} : { continuation: result.continuation }) },
  });
}
