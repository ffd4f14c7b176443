import type { core } from 'zod/mini';

/** Turns zod issues into one readable sentence, e.g. `message.text: expected string`. */
export function formatIssues(issues: readonly core.$ZodIssue[], prefix = ''): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter((part) => part !== '').join('.');
      return `${path === '' ? '(root)' : path}: ${describeIssue(issue)}`;
    })
    .join('; ');
}

function describeIssue(issue: core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'invalid_union':
      return 'matches none of the allowed shapes';
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'unrecognized_keys':
      return `unknown keys ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}
