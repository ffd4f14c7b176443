import type { RelayTransport } from '../protocol/relay-transport.js';
import { decodeWorkerInboundMessage, encodeExecutionResultMessage } from '../protocol/wire.js';
import type { ExecutionCancelMessage, ExecutionRequestMessage } from '../protocol/message-types.js';
import type { ExecutionResult } from '../../execution/types.js';

/** What a test responder answers: a canonical result, a raw body, or nothing (no reply). */
export type ResponderAnswer = { result: ExecutionResult } | { raw: string } | undefined;

/** A minimal worker over any relay: decodes requests, answers through `answer`, records cancels. */
export interface Responder {
  requests: ExecutionRequestMessage[];
  cancels: ExecutionCancelMessage[];
  stop(): void;
}

/** Starts a responder listening as `workerName`. `answer` may be async; its reply goes to `replyTo.agentId` on the thread. */
export function startResponder(
  relay: RelayTransport,
  workerName: string,
  answer: (message: ExecutionRequestMessage) => ResponderAnswer | Promise<ResponderAnswer>,
): Responder {
  const requests: ExecutionRequestMessage[] = [];
  const cancels: ExecutionCancelMessage[] = [];
  const stop = relay.subscribe(workerName, (inbound) => {
    const decoded = decodeWorkerInboundMessage(inbound.text);
    if (!decoded.ok) return;
    const message = decoded.message;
    if (message.type === 'agent-assistant.execution-cancel.v1') {
      cancels.push(message);
      return;
    }
    requests.push(message);
    void Promise.resolve(answer(message)).then(async (reply) => {
      if (reply === undefined) return;
      const text =
        'raw' in reply
          ? reply.raw
          : encodeExecutionResultMessage({
              requestId: message.requestId,
              turnId: message.turnId,
              threadId: message.threadId,
              sentAt: new Date().toISOString(),
              executionResult: reply.result,
            });
      await relay.send({ from: workerName, to: message.replyTo.agentId, threadId: message.threadId, text });
    });
  });
  return { requests, cancels, stop };
}
