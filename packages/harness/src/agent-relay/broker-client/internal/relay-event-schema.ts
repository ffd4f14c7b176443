import * as v from '../../../shared/validation/index.js';
import { lazySchema } from '../../../shared/schemas/lazy-schema.js';

/** A broker `relay_inbound` event, as far as `RelayAdapter` reads it. */
export const relayInboundEventSchema = /* @__PURE__ */ lazySchema(() =>
  v.object({
    kind: v.literal('relay_inbound'),
    event_id: v.string().check(v.minLength(1)),
    from: v.string(),
    target: v.string(),
    body: v.string(),
    thread_id: v.optional(v.nullable(v.string())),
  }),
);
