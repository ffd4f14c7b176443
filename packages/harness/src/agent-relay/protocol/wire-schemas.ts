import * as z from '../../shared/validation/index.js';
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
  const isoTime = z.string().check(z.refine((value) => !Number.isNaN(Date.parse(value)), 'expected an ISO-8601 time'));

  // Names and ids are compared and used as keys: one with a line break could pass for another.
  const noControl = z.refine(hasNoControlCharacters, CONTROL_CHARACTERS_MESSAGE);
  const id = nonEmptyString.check(noControl);
  const ids = { requestId: id, turnId: id, threadId: id, sentAt: isoTime };

  const requestMessageSchema = z.object({
    type: z.literal(AGENT_RELAY_EXECUTION_REQUEST_TYPE),
    ...ids,
    replyTo: z.object({ agentId: id, channelId: z.optional(z.string().check(noControl)) }),
    deadline: z.optional(isoTime),
    request: executionRequestSchema,
    stream: z.optional(z.boolean()),
  });

  /** Each event is checked on its own (see `eventFromBody`), so one unknown event type does not lose the others. */
  const eventMessageSchema = z.object({
    type: z.literal(AGENT_RELAY_EXECUTION_EVENT_TYPE),
    ...ids,
    seq: z.int().check(z.gte(0)),
    events: z.array(z.unknown()).check(z.minLength(1), z.maxLength(MAX_EVENTS_PER_MESSAGE)),
  });

  const resultMessageSchema = z.object({
    type: z.literal(AGENT_RELAY_EXECUTION_RESULT_TYPE),
    ...ids,
    executionResult: executionResultSchema,
  });

  const cancelMessageSchema = z.object({
    type: z.literal(AGENT_RELAY_EXECUTION_CANCEL_TYPE),
    ...ids,
    reason: z.enum(['cancelled', 'timeout']),
  });

  /** The correlation fields of a result envelope, each optional (worker shorthand). */
  const resultEnvelopeSchema = z.object({
    requestId: z.optional(id),
    turnId: z.optional(id),
    threadId: z.optional(id),
    sentAt: z.optional(z.string()),
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
