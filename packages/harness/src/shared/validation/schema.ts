import type { IssueInput, ValidationIssue } from './issues.js';
import { describeIssue } from './issues.js';

/** Where a parse is: the issues found so far and the path to the value being read. */
export interface ParseContext {
  readonly issues: ValidationIssue[];
  readonly path: PropertyKey[];
}

/** Parses one value: returns the output, or records issues in the context. */
export type Parser = (value: unknown, context: ParseContext) => unknown;

/** A check run after a value's type matched: returns the value to keep (`trim` returns a new one). */
export interface Check<T = never> {
  '~check'(value: T, context: ParseContext): unknown;
}

/** The result of `safeParse`. */
export type SafeParseResult<T> =
  | { success: true; data: T; error?: undefined }
  | { success: false; data?: undefined; error: { issues: ValidationIssue[] } };

/** What a schema knows about itself beyond its parser. */
export interface SchemaTraits {
  /** An object key with this schema may be absent. */
  readonly optional?: boolean;
  /** The only values accepted (literals and enums), for discriminated unions. */
  readonly values?: ReadonlySet<unknown>;
  /** An object schema's shape and what it does with keys outside it. */
  readonly object?: ObjectTraits;
}

/** An object schema's shape and its handling of other keys. */
export interface ObjectTraits {
  readonly shape: Shape;
  readonly others: 'strip' | 'keep' | 'refuse' | Schema;
}

/** The shape of an object schema: a schema per key. */
export type Shape = { readonly [key: string]: Schema };

/**
 * A validator: `safeParse` returns the parsed value or the issues. Objects are rebuilt from their
 * shape (other keys dropped unless the schema keeps them; an own `__proto__` key is never copied).
 */
export class Schema<Out = unknown> {
  declare readonly '~output': Out;
  readonly optional: boolean;
  readonly values: ReadonlySet<unknown> | undefined;
  readonly object: ObjectTraits | undefined;

  constructor(
    readonly parser: Parser,
    traits: SchemaTraits = {},
    readonly checks: readonly Check<Out>[] = [],
  ) {
    this.optional = traits.optional === true;
    this.values = traits.values;
    this.object = traits.object;
  }

  /** Parses `value` in `context`; checks run only when the value's type matched. */
  run(value: unknown, context: ParseContext): unknown {
    const before = context.issues.length;
    let output = this.parser(value, context);
    if (this.checks.length === 0 || stopped(context.issues, before)) return output;
    for (const check of this.checks) output = check['~check'](output as Out, context);
    return output;
  }

  /** This schema with more checks, run in order after the existing ones. */
  check(...checks: Check<Out>[]): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    return Object.assign(copy, this, { checks: [...this.checks, ...checks] });
  }

  /** Parses `value` without throwing. */
  safeParse(value: unknown): SafeParseResult<Out> {
    const context: ParseContext = { issues: [], path: [] };
    const data = this.run(value, context);
    return context.issues.length === 0 ? { success: true, data: data as Out } : { success: false, error: { issues: context.issues } };
  }
}

/** A schema whose object key may be absent. */
export type OptionalSchema<Out> = Schema<Out> & { readonly optional: true };

/** The output type of a schema. */
export type Output<S> = S extends Schema<infer Out> ? Out : never;

/** Whether an issue recorded since `from` stops further checks (any issue but a failed check). */
export function stopped(issues: readonly ValidationIssue[], from: number): boolean {
  for (let index = from; index < issues.length; index += 1) if (issues[index]?.continue !== true) return true;
  return false;
}

/** Records an issue at the context's path (plus the issue's own relative path). */
export function addIssue(context: ParseContext, issue: IssueInput): void {
  const path = issue.path === undefined ? context.path.slice() : [...context.path, ...issue.path];
  context.issues.push({ ...issue, path, message: issue.message ?? describeIssue(issue) } as ValidationIssue);
}

/** Runs `schema` on `value` one step down the path at `key`. */
export function runAt(schema: Schema, value: unknown, key: PropertyKey, context: ParseContext): unknown {
  context.path.push(key);
  const output = schema.run(value, context);
  context.path.pop();
  return output;
}

/** A check from a function that returns the value to keep. */
/* @__NO_SIDE_EFFECTS__ */
export function makeCheck<T>(run: (value: T, context: ParseContext) => unknown): Check<T> {
  return { '~check': run };
}

/** `safeParse` as a function. */
export function safeParse<S extends Schema>(schema: S, value: unknown): SafeParseResult<Output<S>> {
  return schema.safeParse(value) as SafeParseResult<Output<S>>;
}
