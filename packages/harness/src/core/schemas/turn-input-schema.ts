import * as v from '../../shared/validation/index.js';
import { commonSchemas } from '../../shared/schemas/common-schemas.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';
import { turnInputPartSchemas } from '../../shared/schemas/turn-input-part-schemas.js';

/** The schemas of this file, built on first use. */
export const turnInputSchemas = /* @__PURE__ */ memo(() => {
  const { nonEmptyString, recordSchema } = commonSchemas();
  const { userMessageSchema, instructionsSchema, contextSchema, historyMessageSchema, toolChoiceSchema } = turnInputPartSchemas();

  const turnInputShape = {
    assistantId: nonEmptyString,
    message: userMessageSchema,
    instructions: instructionsSchema,
    workspaceId: v.optional(v.string()),
    sessionId: v.optional(v.string()),
    userId: v.optional(v.string()),
    threadId: v.optional(v.string()),
    context: v.optional(contextSchema),
    history: v.optional(v.array(historyMessageSchema)),
    toolChoice: v.optional(toolChoiceSchema),
    allowedToolNames: v.optional(v.array(v.string())),
    metadata: v.optional(recordSchema),
  };

  /** The turn input minus `turnId`, as carried inside a continuation. */
  const continuationInputSchema = v.object(turnInputShape);

  const turnInputSchema = v.object({ ...turnInputShape, turnId: nonEmptyString });
  return { userMessageSchema, instructionsSchema, contextSchema, historyMessageSchema, toolChoiceSchema, turnInputShape, continuationInputSchema, turnInputSchema };
});

export const turnInputSchema = /* @__PURE__ */ lazySchema(() => turnInputSchemas().turnInputSchema);
