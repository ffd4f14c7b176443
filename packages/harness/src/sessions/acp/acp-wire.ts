import * as z from '../../shared/validation/index.js';
import { memo } from '../../shared/schemas/lazy-schema.js';

/** The ACP protocol version this client speaks. */
export const ACP_PROTOCOL_VERSION = 1;

const MAX_TEXT = 1_000_000;
const MAX_ID = 1_024;

/** Schemas of the ACP messages the client reads, built on first use. Unknown fields pass. */
export const acpSchemas = /* @__PURE__ */ memo(() => {
  const id = z.string().check(z.minLength(1), z.maxLength(MAX_ID));
  const shortText = z.string().check(z.maxLength(MAX_TEXT));
  const initializeResult = z.looseObject({
    protocolVersion: z.number(),
    agentCapabilities: z.optional(z.nullable(z.looseObject({ loadSession: z.optional(z.nullable(z.boolean())) }))),
    agentInfo: z.optional(z.nullable(z.looseObject({ name: z.optional(shortText), version: z.optional(shortText) }))),
  });
  const newSessionResult = z.looseObject({ sessionId: id });
  const usage = z.looseObject({
    inputTokens: z.optional(z.nullable(z.number())),
    outputTokens: z.optional(z.nullable(z.number())),
    cachedReadTokens: z.optional(z.nullable(z.number())),
    thoughtTokens: z.optional(z.nullable(z.number())),
  });
  const promptResult = z.looseObject({
    stopReason: z.string().check(z.maxLength(MAX_ID)),
    usage: z.optional(z.nullable(usage)),
  });
  // Qwen Code reports each model call's usage on an empty agent_message_chunk: `_meta.usage`.
  const chunkUsage = z.looseObject({ _meta: z.looseObject({ usage }) });
  const toolCallFields = {
    toolCallId: id,
    title: z.optional(z.nullable(shortText)),
    kind: z.optional(z.nullable(shortText)),
    status: z.optional(z.nullable(shortText)),
    rawInput: z.optional(z.nullable(z.unknown())),
  };
  const update = z.looseObject({ sessionUpdate: z.string().check(z.maxLength(MAX_ID)) });
  const sessionUpdate = z.looseObject({ sessionId: id, update });
  const textChunk = z.looseObject({ content: z.looseObject({ type: z.string(), text: z.optional(shortText) }) });
  const toolCall = z.looseObject(toolCallFields);
  const plan = z.looseObject({
    entries: z.array(
      z.looseObject({
        content: shortText,
        status: z.string(),
        priority: z.optional(z.nullable(z.string())),
      }),
    ).check(z.maxLength(1_000)),
  });
  const permissionOption = z.looseObject({ optionId: id, name: shortText, kind: z.string().check(z.maxLength(MAX_ID)) });
  const requestPermission = z.looseObject({
    sessionId: id,
    toolCall: z.looseObject({ ...toolCallFields }),
    options: z.array(permissionOption).check(z.minLength(1), z.maxLength(64)),
  });
  return { initializeResult, newSessionResult, promptResult, chunkUsage, sessionUpdate, textChunk, toolCall, plan, requestPermission };
});

/** A validated `session/request_permission` request. */
export type AcpPermissionParams = z.infer<ReturnType<typeof acpSchemas>['requestPermission']>;

/** A validated `session/prompt` result. */
export type AcpPromptResult = z.infer<ReturnType<typeof acpSchemas>['promptResult']>;

/** Token counts as ACP engines report them (prompt result `usage`, or a chunk's `_meta.usage`). */
export type AcpUsage = NonNullable<AcpPromptResult['usage']>;
