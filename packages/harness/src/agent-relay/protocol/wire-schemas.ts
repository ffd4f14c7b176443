import * as v from '../../shared/validation/index.js';
import { executionRequestSchemas } from '../../execution/execution-request-schema.js';
import { executionResultSchemas } from '../../execution/execution-result-schema.js';
import { commonSchemas } from '../../shared/schemas/common-schemas.js';
import { memo } from '../../shared/schemas/lazy-schema.js';
import { CONTROL_CHARACTERS_MESSAGE, hasNoControlCharacters } from './control-characters.js';
import {
  AGENT_RELAY_EXECUTION_CANCEL_TYPE,
  AGENT_RELAY_EXECUTION_EVENT_TYPE,
  AGENT_RELAY_EXECUTION_REQUEST_TYPE,
  AGENT_RELAY_EXECUTION_RESULT_TYPE,
  MAX_EVENTS_PER_MESSAGE,
} from './message-types.js';

/** The relay wire schemas, built on first use. Unknown keys are dropped from parsed values. */
export const relayWireSchemas = /* @__PURE__ */ memo(() => {
  const { nonEmptyString } = commonSchemas();
  const { executionRequestSchema, executionContinuationSchema } = executionRequestSchemas();
  const { executionResultSchema } = executionResultSchemas();
  const isoTime = v.string().check(v.refine((value) => !Number.isNaN(Date.parse(value)), 'expected an ISO-8601 time'));

  // Names and ids are compared and used as keys: one with a line break could pass for another.
  const noControl = v.refine(hasNoControlCharacters, CONTROL_CHARACTERS_MESSAGE);
  const id = nonEmptyString.check(noControl);
  const ids = { requestId: id, turnId: id, threadId: id, sentAt: isoTime };

  const requestMessageSchema = v.object({
    type: v.literal(AGENT_RELAY_EXECUTION_REQUEST_TYPE),
    ...ids,
    replyTo: v.object({ agentId: id, channelId: v.optional(v.string().check(noControl)) }),
    deadline: v.optional(isoTime),
    request: executionRequestSchema,
    stream: v.optional(v.boolean()),
  });

  /** Each event is checked on its own (see `eventFromBody`), so one unknown event type does not lose the others. */
  const eventMessageSchema = v.object({
    type: v.literal(AGENT_RELAY_EXECUTION_EVENT_TYPE),
    ...ids,
    seq: v.int().check(v.gte(0)),
    events: v.array(v.unknown()).check(v.minLength(1), v.maxLength(MAX_EVENTS_PER_MESSAGE)),
  });

  const resultMessageSchema = v.object({
    type: v.literal(AGENT_RELAY_EXECUTION_RESULT_TYPE),
    ...ids,
    executionResult: executionResultSchema,
  });

  const cancelMessageSchema = v.object({
    type: v.literal(AGENT_RELAY_EXECUTION_CANCEL_TYPE),
    ...ids,
    reason: v.enum(['cancelled', 'timeout']),
  });

  /** The correlation fields of a result envelope, each optional (worker shorthand). */
  const resultEnvelopeSchema = v.object({
    requestId: v.optional(id),
    turnId: v.optional(id),
    threadId: v.optional(id),
    sentAt: v.optional(v.string()),
  });

  return {
    requestMessageSchema,
    resultMessageSchema,
    cancelMessageSchema,
    eventMessageSchema,
    resultEnvelopeSchema,
    executionResultSchema,
    executionContinuationSchema,
  };
});
