import * as z from '../validation/index.js';
import { splitDataUrl } from '../data-url.js';
import { commonSchemas } from './common-schemas.js';
import { memo } from './lazy-schema.js';

/** A media type such as `image/png` or `application/vnd.ms-excel` (parameters are not allowed). */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
/** Standard base64 (RFC 4648 §4 alphabet); the length and padding are checked separately. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** The longest attachment address accepted (other than a `data:` URL), in characters. */
const MAX_URL_CHARS = 16_384;

/** Whether `text` is padded standard base64. */
export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text);
}

/**
 * Why an attachment's `url` is not usable, or `undefined` when it is: a `data:` URL must be base64
 * with a media type; any other URL must parse and be at most 16,384 characters. Which schemes a
 * model provider accepts is the provider's business (`http:`/`https:` and `data:`; others end the
 * turn `attachments_unsupported`); a backend may take its own (`s3:`, `file:` …).
 */
export function attachmentUrlProblem(url: string): string | undefined {
  if (/^data:/i.test(url)) {
    const split = splitDataUrl(url);
    if (split === undefined) return 'a data: URL must be base64: data:<type>/<subtype>;base64,<data>';
    if (!MEDIA_TYPE.test(split.mediaType)) return 'a data: URL needs a media type such as image/png';
    if (!isBase64(split.data)) return 'the data of a data: URL is not valid base64';
    return undefined;
  }
  if (url.length > MAX_URL_CHARS) return `a URL must be at most ${MAX_URL_CHARS} characters`;
  return URL.canParse(url) ? undefined : 'must be an absolute URL (https:, data: …)';
}

/**
 * The schemas of the parts a turn input and an `ExecutionRequest` share (the user message and its
 * attachments, earlier messages, the instructions, the prepared context), built on first use. A
 * context block carries its text as `content` or as `text`; at least one of them is required. An
 * attachment may have a `url` (an absolute URL, or a base64 `data:` URL) and base64 `data` with
 * a `mediaType`; one with neither (a product's own reference in `metadata`) is for backends — a
 * model provider refuses it with `attachments_unsupported`.
 */
export const turnInputPartSchemas = /* @__PURE__ */ memo(() => {
  const { integer, nonEmptyString, recordSchema } = commonSchemas();
  const attachmentSchema = z
    .object({
      id: z.string(),
      type: z.string(),
      name: z.optional(z.string()),
      url: z.optional(z.string()),
      data: z.optional(z.string()),
      mediaType: z.optional(z.string()),
      metadata: z.optional(recordSchema),
    })
    .check(
      z.superRefine((attachment, context) => {
        const fail = (path: string, message: string) => context.addIssue({ code: 'custom', path: [path], message, input: attachment });
        if (attachment.url !== undefined) {
          const problem = attachmentUrlProblem(attachment.url);
          if (problem !== undefined) fail('url', problem);
        }
        if (attachment.data !== undefined) {
          if (attachment.mediaType === undefined) fail('mediaType', 'inline data needs a mediaType such as image/png');
          if (!isBase64(attachment.data)) fail('data', 'must be padded standard base64 (no data: prefix)');
        }
        if (attachment.mediaType !== undefined && !MEDIA_TYPE.test(attachment.mediaType)) {
          fail('mediaType', 'must be a media type such as image/png or application/pdf');
        }
      }),
    );

  const userMessageSchema = z.object({
    id: nonEmptyString,
    text: z.string(),
    receivedAt: z.string(),
    attachments: z.optional(z.array(attachmentSchema)),
  });

  const historyMessageSchema = z.object({
    role: z.enum(['user', 'assistant']),
    text: z.string(),
    attachments: z.optional(z.array(attachmentSchema)),
    pinned: z.optional(z.boolean()),
  });

  const toolChoiceSchema = z.union([z.enum(['auto', 'none', 'required']), z.object({ name: nonEmptyString })]);

  const instructionsSchema = z.object({
    systemPrompt: z.string(),
    developerPrompt: z.optional(z.string()),
    responseStyle: z.optional(
      z.object({
        preferMarkdown: z.optional(z.boolean()),
        maxAnswerChars: z.optional(integer.check(z.positive())),
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
  return { attachmentSchema, userMessageSchema, historyMessageSchema, toolChoiceSchema, instructionsSchema, contextBlockSchema, contextSchema };
});
