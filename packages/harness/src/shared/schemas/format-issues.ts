import type { ValidationIssue } from '../validation/index.js';

/** Turns validation issues into one readable sentence, e.g. `message.text: expected string`. */
export function formatIssues(issues: readonly ValidationIssue[], prefix = ''): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter((part) => part !== '').join('.');
      return `${path === '' ? '(root)' : path}: ${issue.message}`;
    })
    .join('; ');
}
