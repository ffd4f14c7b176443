import type { PermissionAction, PermissionPatternRule, PermissionRuleSet } from '../../permission-types.js';

/** A tool's rule as a test writes it: one action, or patterns in order. */
export type RuleSpec = PermissionAction | Readonly<Record<string, PermissionAction>> | readonly (readonly [string, PermissionAction])[];

/**
 * A rule set from `[tool, rule]` entries in file order (entries, not an object literal, so a key
 * such as `__proto__` stays a key).
 */
export function ruleSet(entries: readonly (readonly [string, RuleSpec])[]): PermissionRuleSet {
  return {
    tools: new Map(
      entries.map(([tool, spec]): [string, PermissionAction | readonly PermissionPatternRule[]] => {
        if (typeof spec === 'string') return [tool, spec as PermissionAction];
        const pairs = Array.isArray(spec) ? (spec as readonly (readonly [string, PermissionAction])[]) : Object.entries(spec);
        return [tool, pairs.map(([pattern, action]) => ({ pattern, action }))];
      }),
    ),
  };
}
