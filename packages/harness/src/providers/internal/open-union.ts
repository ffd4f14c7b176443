import { isRecord } from '../../shared/is-record.js';
import { addIssue, Schema, type Output } from '../../shared/validation/schema.js';

/** What `openUnion` reads a value of a kind it does not know as: its `type`, described for a note. */
export interface OtherKind {
  type: null;
  /** The value's `type` (at most 64 characters), or `(none)` when it has no string `type`. */
  otherType: string;
}

/** Longest `type` kept in `OtherKind.otherType`. */
const MAX_TYPE_CHARS = 64;

/**
 * A schema for provider values of several kinds told apart by their string `type` (output items,
 * content parts): a value of a kind in `kinds` must match that kind's schema, and one of any
 * other kind reads as an `OtherKind` instead of failing, so a kind the provider adds later never
 * breaks a step. `untyped` names the kind a value without a `type` is read as.
 */
export function openUnion<const K extends Readonly<Record<string, Schema>>>(
  kinds: K,
  options: { untyped?: keyof K & string } = {},
): Schema<Output<K[keyof K]> | OtherKind> {
  const byType = new Map<string, Schema>(Object.entries(kinds));
  return new Schema((input, context) => {
    if (!isRecord(input)) {
      addIssue(context, { code: 'invalid_type', expected: 'object' });
      return input;
    }
    const type = typeof input.type === 'string' ? input.type : input.type === undefined ? options.untyped : undefined;
    const schema = type === undefined ? undefined : byType.get(type);
    if (schema !== undefined) return schema.run(input, context);
    const otherType: string = typeof input.type === 'string' ? input.type.slice(0, MAX_TYPE_CHARS) : '(none)';
    return { type: null, otherType } satisfies OtherKind;
  });
}
