import * as v from '../../../shared/validation/index.js';
import { lazySchema } from '../../../shared/schemas/lazy-schema.js';
import { MAX_INPUT_BYTES_LIMIT } from '../../http/http-provider-options.js';

/** The shape of one profile entry before the cross-field checks (protocol names, endpoint policy, secrets). */
export const profileEntrySchema = /* @__PURE__ */ lazySchema(() =>
  v.strictObject({
    id: v.string().check(v.regex(/^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,127}$/, 'must be 1-128 letters, digits or ._:@/- starting with a letter or digit')),
    provider: v.string().check(v.minLength(1), v.maxLength(64)),
    protocol: v.string(),
    model: v.string().check(v.minLength(1), v.maxLength(256)),
    endpoint: v.string().check(v.minLength(1), v.maxLength(2048)),
    authMode: v.enum(['none', 'api-key']),
    secretSource: v.optional(
      v.strictObject({
        kind: v.literal('environment'),
        name: v.string().check(v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'must be a variable name (letters, digits, _)')),
      }),
    ),
    allowInsecureHttp: v.optional(v.boolean()),
    maxInputBytes: v.optional(v.int().check(v.gte(1), v.lte(MAX_INPUT_BYTES_LIMIT))),
    maxOutputTokens: v.optional(v.int().check(v.gte(1))),
    contextWindow: v.optional(v.int().check(v.gte(1), v.lte(100_000_000))),
    temperature: v.optional(v.number().check(v.gte(0), v.lte(2))),
    namedToolChoice: v.optional(v.enum(['function', 'required'])),
    pricing: v.optional(v.unknown()),
    label: v.optional(v.string().check(v.maxLength(200))),
  }),
);

/** The top level of a profile file. */
export const profileFileSchema = /* @__PURE__ */ lazySchema(() =>
  v.strictObject({
    profiles: v.array(v.unknown()).check(v.minLength(1), v.maxLength(1000)),
    aliases: v.optional(v.unknown()),
  }),
);
