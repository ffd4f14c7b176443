import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import { describeError } from '../../../shared/describe-error.js';
import type { PermissionAction, PermissionRuleSet } from '../../permission-types.js';
import { compilePattern, type CompiledPattern } from './permission-pattern.js';

/** One pattern rule, compiled. */
export interface CompiledPatternRule {
  readonly pattern: CompiledPattern;
  readonly action: PermissionAction;
}

/** The rules of one tool key: one action for every call, or pattern rules. */
export type CompiledToolRules =
  | { readonly kind: 'action'; readonly action: PermissionAction }
  | { readonly kind: 'patterns'; readonly rules: readonly CompiledPatternRule[] };

/** A rule set read once into a fresh `Map` (keys are plain data, `__proto__` included). */
export type CompiledRuleSet = ReadonlyMap<string, CompiledToolRules>;

/** The most tool keys and pattern rules together a rule set may hold. */
const MAX_RULES = 10_000;

const ACTIONS: ReadonlySet<unknown> = new Set<PermissionAction>(['allow', 'ask', 'deny']);

/**
 * Reads and checks a rule set, each value once, so a later change to the caller's map cannot
 * change a decision.
 * @throws HarnessConfigError naming the key when the rule set is malformed.
 */
export function compilePermissionRules(rules: PermissionRuleSet): CompiledRuleSet {
  try {
    return compile(rules);
  } catch (error) {
    if (HarnessConfigError.isInstance(error)) throw error;
    throw new HarnessConfigError(`The permission rules could not be read: ${describeError(error, 200)}.`, { field: 'rules' });
  }
}

function compile(rules: PermissionRuleSet): CompiledRuleSet {
  const tools: unknown = (rules as { tools?: unknown } | null | undefined)?.tools;
  if (typeof (tools as { entries?: unknown } | null | undefined)?.entries !== 'function') {
    throw new HarnessConfigError('Permission rules must be { tools: a Map of tool name → rule }.', { field: 'rules.tools' });
  }
  const compiled = new Map<string, CompiledToolRules>();
  let count = 0;
  for (const [key, value] of (tools as ReadonlyMap<unknown, unknown>).entries()) {
    count += 1;
    if (count > MAX_RULES) throw tooMany();
    if (typeof key !== 'string' || key === '') {
      throw new HarnessConfigError('A permission rule key must be a tool name or "*".', { field: 'rules.tools' });
    }
    const field = `rules.tools[${JSON.stringify(key.slice(0, 80))}]`;
    if (ACTIONS.has(value)) {
      compiled.set(key, { kind: 'action', action: value as PermissionAction });
      continue;
    }
    if (!Array.isArray(value) || value.length === 0) {
      throw new HarnessConfigError(`${field} must be allow, ask, deny or a non-empty list of { pattern, action }.`, { field });
    }
    const list: CompiledPatternRule[] = [];
    for (const rule of value as unknown[]) {
      count += 1;
      if (count > MAX_RULES) throw tooMany();
      const pattern = (rule as { pattern?: unknown } | null)?.pattern;
      const action = (rule as { action?: unknown } | null)?.action;
      if (typeof pattern !== 'string' || !ACTIONS.has(action)) {
        throw new HarnessConfigError(`${field} has a rule that is not { pattern: string, action: allow | ask | deny }.`, { field });
      }
      list.push({ pattern: compilePattern(pattern), action: action as PermissionAction });
    }
    compiled.set(key, { kind: 'patterns', rules: list });
  }
  return compiled;
}

function tooMany(): HarnessConfigError {
  return new HarnessConfigError(`Permission rules may hold at most ${String(MAX_RULES)} tool keys and patterns together.`, { field: 'rules.tools' });
}
