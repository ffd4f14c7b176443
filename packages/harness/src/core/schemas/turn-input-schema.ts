import * as z from 'zod/mini';
import { commonSchemas } from '../../shared/schemas/common-schemas.js';
import { lazySchema, memo } from '../../shared/schemas/lazy-schema.js';

/** The schemas of this file, built on first use. */
export const turnInputSchemas = memo(() => {
  const { nonEmptyString, recordSchema } = commonSchemas();
  const userMessageSchema = z.object({
    id: nonEmptyString,
    text: z.string(),
    receivedAt: z.string(),
    attachments: z.optional(
      z.array(
        z.object({
          id: z.string(),
          type: z.string(),
          name: z.optional(z.string()),
          url: z.optional(z.string()),
          metadata: z.optional(recordSchema),
        }),
      ),
    ),
  });

  const instructionsSchema = z.object({
    systemPrompt: z.string(),
    developerPrompt: z.optional(z.string()),
    responseStyle: z.optional(
      z.object({
        preferMarkdown: z.optional(z.boolean()),
        maxAnswerChars: z.optional(z.int().check(z.positive())),
      }),
    ),
  });

  const contextSchema = z.object({
    blocks: z.array(
      z.object({
        id: z.string(),
        label: z.string(),
        content: z.string(),
        importance: z.optional(z.enum(['low', 'medium', 'high'])),
        source: z.optional(z.string()),
      }),
    ),
    structured: z.optional(recordSchema),
  });

  const turnInputShape = {
    assistantId: nonEmptyString,
    message: userMessageSchema,
    instructions: instructionsSchema,
    workspaceId: z.optional(z.string()),
    sessionId: z.optional(z.string()),
    userId: z.optional(z.string()),
    threadId: z.optional(z.string()),
    context: z.optional(contextSchema),
    allowedToolNames: z.optional(z.array(z.string())),
    metadata: z.optional(recordSchema),
  };

  /** The turn input minus `turnId`, as carried inside a continuation. */
  const continuationInputSchema = z.object(turnInputShape);

  const turnInputSchema = z.object({ ...turnInputShape, turnId: nonEmptyString });
  return { userMessageSchema, instructionsSchema, contextSchema, turnInputShape, continuationInputSchema, turnInputSchema };
});

export const turnInputSchema = lazySchema(() => turnInputSchemas().turnInputSchema);
