import * as z from '../../../shared/validation/index.js';
import { lazySchema } from '../../../shared/schemas/lazy-schema.js';

/** A broker `relay_inbound` event, as far as `RelayAdapter` reads it. */
export const relayInboundEventSchema = /* @__PURE__ */ lazySchema(() =>
  z.object({
    kind: z.literal('relay_inbound'),
    event_id: z.string().check(z.minLength(1)),
    from: z.string(),
    target: z.string(),
    body: z.string(),
    thread_id: z.optional(z.nullable(z.string())),
  }),
);
