import { frozenMap } from '../internal/frozen-map.js';
import type { PermissionAction, PermissionPatternRule, PermissionRuleSet } from '../permission-types.js';
import type { YamlEntry, YamlValue } from './parse-yaml.js';
import { quoteName, TOOL_NAME_PATTERN } from './project-names.js';
import { badValue, kindOf, type FileScope } from './yaml-fields.js';

const ACTIONS: readonly PermissionAction[] = ['allow', 'ask', 'deny'];
/** Longest command pattern accepted, in characters. */
const MAX_PATTERN_LENGTH = 1024;

/** No rules: what an agent without a `permission` key gets. */
export const NO_PERMISSION_RULES: PermissionRuleSet = /* @__PURE__ */ Object.freeze({ tools: /* @__PURE__ */ frozenMap<PermissionAction | readonly PermissionPatternRule[]>([]) });

/**
 * The frontmatter `permission` key: per tool name (or `*`) an action, or command-pattern rules in
 * file order (`bash: { "git status*": allow, "*": deny }`). Undefined after a problem.
 */
export function readPermission(scope: FileScope, entry: YamlEntry | undefined): PermissionRuleSet | undefined {
  if (entry === undefined) return NO_PERMISSION_RULES;
  if (entry.value.kind !== 'map') {
    badValue(scope, 'permission', entry, `must be a mapping of tool names to allow, ask or deny; got ${kindOf(entry.value)}.`);
    return undefined;
  }
  const tools: Array<[string, PermissionAction | readonly PermissionPatternRule[]]> = [];
  let ok = true;
  for (const toolEntry of entry.value.entries.values()) {
    const key = `permission.${toolEntry.key}`;
    if (toolEntry.key !== '*' && !TOOL_NAME_PATTERN.test(toolEntry.key)) {
      scope.log.problem(scope.file, `permission names ${quoteName(toolEntry.key)}, which is not a tool name (${String(TOOL_NAME_PATTERN)}) or *.`, {
        key,
        line: toolEntry.line,
      });
      ok = false;
      continue;
    }
    const rule = readToolRule(scope, key, toolEntry);
    if (rule === undefined) ok = false;
    else tools.push([toolEntry.key, rule]);
  }
  return ok ? Object.freeze({ tools: frozenMap(tools) }) : undefined;
}

function readToolRule(scope: FileScope, key: string, entry: YamlEntry): PermissionAction | readonly PermissionPatternRule[] | undefined {
  const { value } = entry;
  if (value.kind === 'scalar') return readAction(scope, key, entry, value);
  if (value.kind !== 'map') {
    badValue(scope, key, entry, `must be allow, ask, deny or a mapping of command patterns to them; got ${kindOf(value)}.`);
    return undefined;
  }
  if (value.entries.size === 0) {
    badValue(scope, key, entry, 'has no command patterns; give at least one (e.g. "*": ask) or a single action.');
    return undefined;
  }
  const rules: PermissionPatternRule[] = [];
  let ok = true;
  for (const patternEntry of value.entries.values()) {
    const pattern = patternEntry.key;
    if (pattern === '' || pattern.length > MAX_PATTERN_LENGTH) {
      scope.log.problem(scope.file, `${key} has a command pattern that is empty or longer than ${MAX_PATTERN_LENGTH} characters.`, {
        key,
        line: patternEntry.line,
      });
      ok = false;
      continue;
    }
    const action = readAction(scope, `${key}[${JSON.stringify(pattern.slice(0, 80))}]`, patternEntry, patternEntry.value);
    if (action === undefined) ok = false;
    else rules.push(Object.freeze({ pattern, action }));
  }
  return ok ? Object.freeze(rules) : undefined;
}

function readAction(scope: FileScope, key: string, entry: YamlEntry, value: YamlValue): PermissionAction | undefined {
  if (value.kind === 'scalar' && typeof value.value === 'string' && (ACTIONS as readonly string[]).includes(value.value)) {
    return value.value as PermissionAction;
  }
  badValue(scope, key, { line: value.line ?? entry.line }, `must be allow, ask or deny; got ${value.kind === 'scalar' && typeof value.value === 'string' ? quoteName(value.value) : kindOf(value)}.`);
  return undefined;
}
