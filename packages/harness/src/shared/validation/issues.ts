/** What every issue carries: where (the path from the root) and a readable message. */
interface IssueBase {
  readonly path: PropertyKey[];
  readonly message: string;
  /** Set on failed checks: the value had the right type, so later checks still run. */
  readonly continue?: true;
}

/** One problem found by a schema. */
export type ValidationIssue =
  | (IssueBase & { readonly code: 'invalid_type'; readonly expected: string })
  | (IssueBase & { readonly code: 'invalid_value'; readonly values: readonly unknown[] })
  | (IssueBase & { readonly code: 'invalid_union'; readonly errors: readonly (readonly ValidationIssue[])[]; readonly note?: string })
  | (IssueBase & { readonly code: 'too_small'; readonly minimum: number; readonly inclusive: boolean })
  | (IssueBase & { readonly code: 'too_big'; readonly maximum: number; readonly inclusive: boolean })
  | (IssueBase & { readonly code: 'unrecognized_keys'; readonly keys: readonly string[] })
  | (IssueBase & { readonly code: 'invalid_format'; readonly pattern: string })
  | (IssueBase & { readonly code: 'custom'; readonly input?: unknown });

/** An issue as a schema reports it: the path is relative to the value, the message optional. */
export type IssueInput = ValidationIssue extends infer Issue
  ? Issue extends ValidationIssue
    ? Omit<Issue, 'path' | 'message'> & { path?: readonly PropertyKey[]; message?: string }
    : never
  : never;

/** The default message of an issue, e.g. `expected string` or `must be at most 200`. */
export function describeIssue(issue: IssueInput): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_union':
      return 'matches none of the allowed shapes';
    case 'too_small':
      return issue.inclusive ? `must be at least ${String(issue.minimum)}` : `must be more than ${String(issue.minimum)}`;
    case 'too_big':
      return issue.inclusive ? `must be at most ${String(issue.maximum)}` : `must be less than ${String(issue.maximum)}`;
    case 'unrecognized_keys':
      return `unknown keys ${issue.keys.join(', ')}`;
    case 'invalid_format':
      return `must match ${issue.pattern}`;
    default:
      return 'invalid input';
  }
}
