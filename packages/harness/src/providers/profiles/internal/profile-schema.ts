import * as z from '../../../shared/validation/index.js';
import { lazySchema } from '../../../shared/schemas/lazy-schema.js';
import { MAX_INPUT_BYTES_LIMIT } from '../../http/http-provider-options.js';

/** The shape of one profile entry before the cross-field checks (protocol names, endpoint policy, secrets). */
export const profileEntrySchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    id: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,127}$/, 'must be 1-128 letters, digits or ._:@/- starting with a letter or digit')),
    provider: z.string().check(z.minLength(1), z.maxLength(64)),
    protocol: z.string(),
    model: z.string().check(z.minLength(1), z.maxLength(256)),
    endpoint: z.string().check(z.minLength(1), z.maxLength(2048)),
    authMode: z.enum(['none', 'api-key']),
    secretSource: z.optional(
      z.strictObject({
        kind: z.literal('environment'),
        name: z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be a variable name (letters, digits, _)')),
      }),
    ),
    allowInsecureHttp: z.optional(z.boolean()),
    maxInputBytes: z.optional(z.int().check(z.gte(1), z.lte(MAX_INPUT_BYTES_LIMIT))),
    maxOutputTokens: z.optional(z.int().check(z.gte(1))),
    contextWindow: z.optional(z.int().check(z.gte(1), z.lte(100_000_000))),
    temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
    namedToolChoice: z.optional(z.enum(['function', 'required'])),
    pricing: z.optional(z.unknown()),
    label: z.optional(z.string().check(z.maxLength(200))),
  }),
);

/** The top level of a profile file. */
export const profileFileSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    profiles: z.array(z.unknown()).check(z.minLength(1), z.maxLength(1000)),
    aliases: z.optional(z.unknown()),
  }),
);
