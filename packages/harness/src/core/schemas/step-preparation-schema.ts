import * as v from '../../shared/validation/index.js';
import { lazySchema } from '../../shared/schemas/lazy-schema.js';
import { turnInputPartSchemas } from '../../shared/schemas/turn-input-part-schemas.js';

/** Validates what `hooks.prepareStep` returned (when not `undefined`): `{ toolChoice? }`. */
export const stepPreparationSchema = /* @__PURE__ */ lazySchema(() =>
  v.object({ toolChoice: v.optional(turnInputPartSchemas().toolChoiceSchema) }),
);
