import * as v from '../../shared/validation/index.js';
import { memo } from '../../shared/schemas/lazy-schema.js';

/** The ACP protocol version this client speaks. */
export const ACP_PROTOCOL_VERSION = 1;

const MAX_TEXT = 1_000_000;
const MAX_ID = 1_024;

/** Schemas of the ACP messages the client reads, built on first use. Unknown fields pass. */
export const acpSchemas = /* @__PURE__ */ memo(() => {
  const id = v.string().check(v.minLength(1), v.maxLength(MAX_ID));
  const shortText = v.string().check(v.maxLength(MAX_TEXT));
  const initializeResult = v.looseObject({
    protocolVersion: v.number(),
    agentCapabilities: v.optional(v.nullable(v.looseObject({ loadSession: v.optional(v.nullable(v.boolean())) }))),
    agentInfo: v.optional(v.nullable(v.looseObject({ name: v.optional(shortText), version: v.optional(shortText) }))),
  });
  const newSessionResult = v.looseObject({ sessionId: id });
  const usage = v.looseObject({
    inputTokens: v.optional(v.nullable(v.number())),
    outputTokens: v.optional(v.nullable(v.number())),
    cachedReadTokens: v.optional(v.nullable(v.number())),
    thoughtTokens: v.optional(v.nullable(v.number())),
  });
  const promptResult = v.looseObject({
    stopReason: v.string().check(v.maxLength(MAX_ID)),
    usage: v.optional(v.nullable(usage)),
  });
  // Qwen Code reports each model call's usage on an empty agent_message_chunk: `_meta.usage`.
  const chunkUsage = v.looseObject({ _meta: v.looseObject({ usage }) });
  const toolCallFields = {
    toolCallId: id,
    title: v.optional(v.nullable(shortText)),
    kind: v.optional(v.nullable(shortText)),
    status: v.optional(v.nullable(shortText)),
    rawInput: v.optional(v.nullable(v.unknown())),
  };
  const update = v.looseObject({ sessionUpdate: v.string().check(v.maxLength(MAX_ID)) });
  const sessionUpdate = v.looseObject({ sessionId: id, update });
  const textChunk = v.looseObject({ content: v.looseObject({ type: v.string(), text: v.optional(shortText) }) });
  const toolCall = v.looseObject(toolCallFields);
  const plan = v.looseObject({
    entries: v.array(
      v.looseObject({
        content: shortText,
        status: v.string(),
        priority: v.optional(v.nullable(v.string())),
      }),
    ).check(v.maxLength(1_000)),
  });
  const permissionOption = v.looseObject({ optionId: id, name: shortText, kind: v.string().check(v.maxLength(MAX_ID)) });
  const requestPermission = v.looseObject({
    sessionId: id,
    toolCall: v.looseObject({ ...toolCallFields }),
    options: v.array(permissionOption).check(v.minLength(1), v.maxLength(64)),
  });
  return { initializeResult, newSessionResult, promptResult, chunkUsage, sessionUpdate, textChunk, toolCall, plan, requestPermission };
});

/** A validated `session/request_permission` request. */
export type AcpPermissionParams = v.infer<ReturnType<typeof acpSchemas>['requestPermission']>;

/** A validated `session/prompt` result. */
export type AcpPromptResult = v.infer<ReturnType<typeof acpSchemas>['promptResult']>;

/** Token counts as ACP engines report them (prompt result `usage`, or a chunk's `_meta.usage`). */
export type AcpUsage = NonNullable<AcpPromptResult['usage']>;
