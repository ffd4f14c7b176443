import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { detachValue } from '../../core/continuation/detach-value.js';
import { isRecord } from '../../shared/is-record.js';
import type { PermissionAction, PermissionRuleSet } from '../permission-types.js';
import { compilePermissionRules, type CompiledPatternRule, type CompiledRuleSet } from './internal/compile-permission-rules.js';
import { readPermissionSubject, type PermissionSubject } from './internal/permission-subject.js';

/** A tool call as permission rules see it. */
export interface PermissionCall {
  /** The tool's name. */
  readonly name: string;
  /** The call's input, as plain data. @default {} */
  readonly input?: Readonly<Record<string, unknown>> | undefined;
}

/** The rule that decided a call, as written in the agent's `permission`. */
export interface PermissionRuleMatch {
  /** The key it sits under: the tool's name, or `*`. */
  readonly tool: string;
  /** The command pattern, for a pattern rule; absent for a rule covering every call of the tool. */
  readonly pattern?: string | undefined;
  /** What the rule says. */
  readonly action: PermissionAction;
}

/**
 * What the rules decide for one call, and the rule that decided it. No rule: no rule matched
 * (`allow`, the default), or the input could not be read as plain data (`deny`).
 */
export interface PermissionDecision {
  /** Run the call, ask a person first, or refuse it. */
  readonly action: PermissionAction;
  /** The rule that decided, when one did. */
  readonly rule?: PermissionRuleMatch | undefined;
}

/** The wildcard key: rules for every tool that has no rule of its own that decides the call. */
export const PERMISSION_WILDCARD_TOOL = '*';

const SEVERITY: Readonly<Record<PermissionAction, number>> = { allow: 0, ask: 1, deny: 2 };
const ALLOW: PermissionDecision = /* @__PURE__ */ Object.freeze({ action: 'allow' });
const UNREADABLE: PermissionDecision = /* @__PURE__ */ Object.freeze({ action: 'deny' });

/**
 * Decides a tool call by an agent's permission rules.
 *
 * - The tool's own key is consulted first, then `*`. A key whose value is an action decides every
 *   call of the tool; a key with patterns decides a call only when one of its patterns matches,
 *   else the next key is consulted.
 * - Patterns match the call's subject: the bash tool's `command`, the skill tool's `name`, the
 *   task tool's `subagent` (see `PERMISSION_SUBJECT_FIELDS`). `*` matches any run of
 *   characters; a pattern ending ` *` also matches without it (`git push *` matches `git push`).
 *   A call without a subject is matched only by patterns made of `*` alone.
 * - Of several matching patterns the **most specific wins** — the one with the most characters
 *   other than `*` — whatever their order; on a tie the stricter action wins (deny, then ask, then
 *   allow). `{"*": "deny", "git status*": "allow"}` and `{"git status*": "allow", "*": "deny"}`
 *   mean the same.
 * - A command is matched in a canonical form: a simple command (no shell syntax) as its words
 *   joined by one space, quotes removed. A command with shell syntax (`;`, `|`, `&`, `$`,
 *   backticks, redirections, brackets, line breaks, unquoted globs) is compound: an `allow`
 *   pattern with literal text never covers it; the deny and ask patterns and the catch-all (`*`)
 *   are matched against the whole command and against each part between shell separators, and
 *   the strictest verdict wins.
 * - No matching rule: `allow` — rules only narrow what the grants allow.
 *
 * The input is read once, as a plain copy; an input that cannot be (a throwing getter, a cycle)
 * is denied.
 * @throws HarnessConfigError when `rules` is malformed or `call.name` is not a string.
 * @example
 * ```ts
 * decidePermission(agent.permission, { name: 'bash', input: { command: 'git push origin main' } });
 * // { action: 'ask', rule: { tool: 'bash', pattern: 'git push*', action: 'ask' } }
 * ```
 */
export function decidePermission(rules: PermissionRuleSet, call: PermissionCall): PermissionDecision {
  const compiled = compilePermissionRules(rules);
  const name: unknown = call?.name;
  if (typeof name !== 'string') throw new HarnessConfigError('call.name must be the tool name, a string.', { field: 'call.name' });
  const input = detachValue(call.input ?? {});
  if (!input.ok || !isRecord(input.value)) return UNREADABLE;
  return decideCompiled(compiled, { name, input: input.value });
}

/**
 * True when the rules deny every call of the tool, so it should not be offered at all: its own
 * key is `deny`, or it has no key and `*` is `deny`. A `deny` from a pattern never counts.
 * @throws HarnessConfigError when `rules` is malformed.
 */
export function permissionDeniesTool(rules: PermissionRuleSet, toolName: string): boolean {
  return deniesTool(compilePermissionRules(rules), toolName);
}

/** {@link permissionDeniesTool} over compiled rules. */
export function deniesTool(rules: CompiledRuleSet, toolName: string): boolean {
  const own = rules.get(toolName) ?? rules.get(PERMISSION_WILDCARD_TOOL);
  return own?.kind === 'action' && own.action === 'deny';
}

/** True when some rule that could apply to the tool is `ask`. */
export function mayAsk(rules: CompiledRuleSet, toolName: string): boolean {
  return keysFor(toolName).some((key) => {
    const entry = rules.get(key);
    if (entry === undefined) return false;
    return entry.kind === 'action' ? entry.action === 'ask' : entry.rules.some((rule) => rule.action === 'ask');
  });
}

/** {@link decidePermission} over compiled rules; `call.input` must be plain data. */
export function decideCompiled(rules: CompiledRuleSet, call: PermissionCall): PermissionDecision {
  const subject = readPermissionSubject(call.name, call.input ?? {});
  for (const key of keysFor(call.name)) {
    const entry = rules.get(key);
    if (entry === undefined) continue;
    if (entry.kind === 'action') return { action: entry.action, rule: { tool: key, action: entry.action } };
    const matched = matchSubject(entry.rules, subject);
    if (matched !== undefined) {
      return { action: matched.action, rule: { tool: key, pattern: matched.pattern.source, action: matched.action } };
    }
  }
  return ALLOW;
}

function keysFor(toolName: string): string[] {
  return toolName === PERMISSION_WILDCARD_TOOL ? [toolName] : [toolName, PERMISSION_WILDCARD_TOOL];
}

function matchSubject(rules: readonly CompiledPatternRule[], subject: PermissionSubject | undefined): CompiledPatternRule | undefined {
  if (subject === undefined) return best(rules, (rule) => rule.pattern.literals === 0);
  if (!subject.compound) return best(rules, (rule) => rule.pattern.matches(subject.texts[0]!));
  let strictest: CompiledPatternRule | undefined;
  for (const text of subject.texts) {
    const found = best(rules, (rule) => (rule.action !== 'allow' || rule.pattern.literals === 0) && rule.pattern.matches(text));
    if (found !== undefined && (strictest === undefined || outranks(found, strictest, 'severity'))) strictest = found;
  }
  return strictest;
}

/** The most specific rule passing `test` (ties: the stricter, then the first). */
function best(rules: readonly CompiledPatternRule[], test: (rule: CompiledPatternRule) => boolean): CompiledPatternRule | undefined {
  let chosen: CompiledPatternRule | undefined;
  for (const rule of rules) if (test(rule) && (chosen === undefined || outranks(rule, chosen, 'specificity'))) chosen = rule;
  return chosen;
}

function outranks(rule: CompiledPatternRule, other: CompiledPatternRule, first: 'specificity' | 'severity'): boolean {
  const specificity = rule.pattern.literals - other.pattern.literals;
  const severity = SEVERITY[rule.action] - SEVERITY[other.action];
  return first === 'specificity' ? specificity > 0 || (specificity === 0 && severity > 0) : severity > 0 || (severity === 0 && specificity > 0);
}
