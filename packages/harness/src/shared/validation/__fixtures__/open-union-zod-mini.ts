import * as z from 'zod/mini';
import { isRecord } from '../../is-record.js';

/**
 * `providers/internal/open-union.ts` in zod/mini terms, for the differential test: `openUnion` is
 * built on the validator's internals, which zod/mini does not have, so its zod twin reads the same
 * rule through a transform (a known `type` must match its schema, any other reads as `OtherKind`).
 */
export function openUnion(kinds: Readonly<Record<string, z.ZodMiniType>>, options: { untyped?: string } = {}): z.ZodMiniType {
  const byType = new Map<string, z.ZodMiniType>(Object.entries(kinds));
  return z.pipe(
    z.unknown(),
    z.transform((input, context) => {
      if (!isRecord(input)) {
        context.issues.push({ code: 'invalid_type', expected: 'object', input, message: 'expected object' });
        return z.NEVER;
      }
      const type = typeof input.type === 'string' ? input.type : input.type === undefined ? options.untyped : undefined;
      const schema = type === undefined ? undefined : byType.get(type);
      if (schema === undefined) return { type: null, otherType: typeof input.type === 'string' ? input.type.slice(0, 64) : '(none)' };
      const parsed = z.safeParse(schema, input);
      if (parsed.success) return parsed.data;
      for (const issue of parsed.error.issues) context.issues.push({ ...issue, input } as never);
      return z.NEVER;
    }),
  );
}
