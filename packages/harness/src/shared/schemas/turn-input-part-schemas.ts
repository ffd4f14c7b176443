import * as v from '../validation/index.js';
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
  const attachmentSchema = v
    .object({
      id: v.string(),
      type: v.string(),
      name: v.optional(v.string()),
      url: v.optional(v.string()),
      data: v.optional(v.string()),
      mediaType: v.optional(v.string()),
      metadata: v.optional(recordSchema),
    })
    .check(
      v.superRefine((attachment, context) => {
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

  const userMessageSchema = v.object({
    id: nonEmptyString,
    text: v.string(),
    receivedAt: v.string(),
    attachments: v.optional(v.array(attachmentSchema)),
  });

  const historyMessageSchema = v.object({
    role: v.enum(['user', 'assistant']),
    text: v.string(),
    attachments: v.optional(v.array(attachmentSchema)),
    pinned: v.optional(v.boolean()),
  });

  const toolChoiceSchema = v.union([v.enum(['auto', 'none', 'required']), v.object({ name: nonEmptyString })]);

  const instructionsSchema = v.object({
    systemPrompt: v.string(),
    developerPrompt: v.optional(v.string()),
    responseStyle: v.optional(
      v.object({
        preferMarkdown: v.optional(v.boolean()),
        maxAnswerChars: v.optional(integer.check(v.positive())),
      }),
    ),
  });

  const contextBlockSchema = v
    .object({
      id: v.string(),
      label: v.string(),
      content: v.optional(v.string()),
      text: v.optional(v.string()),
      importance: v.optional(v.enum(['low', 'medium', 'high'])),
      source: v.optional(v.string()),
    })
    .check(
      v.refine((block) => block.content !== undefined || block.text !== undefined, {
        message: 'a context block needs its text as content or text',
      }),
    );

  const contextSchema = v.object({
    blocks: v.array(contextBlockSchema),
    structured: v.optional(recordSchema),
  });
  return { attachmentSchema, userMessageSchema, historyMessageSchema, toolChoiceSchema, instructionsSchema, contextBlockSchema, contextSchema };
});
