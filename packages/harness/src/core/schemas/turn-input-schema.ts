import * as z from '../../shared/validation/index.js';
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
    workspaceId: z.optional(z.string()),
    sessionId: z.optional(z.string()),
    userId: z.optional(z.string()),
    threadId: z.optional(z.string()),
    context: z.optional(contextSchema),
    history: z.optional(z.array(historyMessageSchema)),
    toolChoice: z.optional(toolChoiceSchema),
    allowedToolNames: z.optional(z.array(z.string())),
    metadata: z.optional(recordSchema),
  };

  /** The turn input minus `turnId`, as carried inside a continuation. */
  const continuationInputSchema = z.object(turnInputShape);

  const turnInputSchema = z.object({ ...turnInputShape, turnId: nonEmptyString });
  return { userMessageSchema, instructionsSchema, contextSchema, historyMessageSchema, toolChoiceSchema, turnInputShape, continuationInputSchema, turnInputSchema };
});

export const turnInputSchema = /* @__PURE__ */ lazySchema(() => turnInputSchemas().turnInputSchema);
