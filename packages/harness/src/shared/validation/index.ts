/**
 * The package's own validator: the subset of zod/mini's API the harness uses (same names, so
 * schemas read the same), small enough to leave no validation library in a Worker bundle.
 */
export { Schema, safeParse, type Check, type OptionalSchema, type Output, type Output as output, type Output as infer, type SafeParseResult } from './schema.js';
export type { ValidationIssue } from './issues.js';
export { boolean, custom, enum, int, literal, number, string, unknown } from './primitives.js';
export { catchall, looseObject, object, record, strictObject, type ObjectOutput, type ObjectSchema } from './objects.js';
export { array, discriminatedUnion, nullable, optional, pipe, transform, union } from './combinators.js';
export { gt, gte, lte, maximum, maxLength, minimum, minLength, positive, refine, regex, superRefine, trim, type RefinementContext } from './checks.js';
