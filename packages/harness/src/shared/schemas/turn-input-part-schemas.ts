import * as z from 'zod/mini';
import { commonSchemas } from './common-schemas.js';
import { memo } from './lazy-schema.js';

/**
 * The schemas of the parts a turn input and an `ExecutionRequest` share (the user message, the
 * instructions, the prepared context), built on first use. A context block carries its text as
 * `content` or as `text`; at least one of them is required.
 */
export const turnInputPartSchemas = /* @__PURE__ */ memo(() => {
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

  const contextBlockSchema = z
    .object({
      id: z.string(),
      label: z.string(),
      content: z.optional(z.string()),
      text: z.optional(z.string()),
      importance: z.optional(z.enum(['low', 'medium', 'high'])),
      source: z.optional(z.string()),
    })
    .check(
      z.refine((block) => block.content !== undefined || block.text !== undefined, {
        message: 'a context block needs its text as content or text',
      }),
    );

  const contextSchema = z.object({
    blocks: z.array(contextBlockSchema),
    structured: z.optional(recordSchema),
  });
  return { userMessageSchema, instructionsSchema, contextBlockSchema, contextSchema };
});
