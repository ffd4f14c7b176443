import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { detachValue } from '../../core/continuation/detach-value.js';
import { approvalSummary } from '../../core/tool-approval.js';
import { rejectedToolResult } from '../../core/tool-results.js';
import { isRecord } from '../../shared/is-record.js';
import type {
  HarnessToolApprovalRequest,
  HarnessToolCall,
  HarnessToolDefinition,
  HarnessToolExecutionContext,
  HarnessToolRegistry,
  HarnessToolResult,
  HarnessToolTurnSeam,
} from '../../shared/types/tools.js';
import { declaredNames } from '../../tools/compose-tool-registries.js';
import type { PermissionRuleSet } from '../permission-types.js';
import { decideCompiled, deniesTool, mayAsk, PERMISSION_WILDCARD_TOOL, type PermissionRuleMatch } from './decide-permission.js';
import { compilePermissionRules, type CompiledRuleSet } from './internal/compile-permission-rules.js';

/** A registry narrowed by permission rules (see {@link withPermissionRules}). */
export interface PermissionRuledToolRegistry extends HarnessToolRegistry {
  /** The wrapped registry's declared names without the tools the rules deny; `undefined` when it declares none. */
  readonly toolNames: readonly string[] | undefined;
}

/** Tool-state key prefix marking a call a person approved, so a call that pauses again is not asked twice. */
const APPROVED_KEY = 'permissions.approved.';

/**
 * Applies an agent's permission rules to a tool registry (rules as {@link decidePermission}
 * decides them):
 *
 * - a tool whose rule is a whole-tool `deny` is not offered to the model, and calling it anyway
 *   is a `permission_denied` error;
 * - a call a pattern rule denies is not run: the model gets a retryable `permission_denied`
 *   error naming the rule (`error.metadata.permissionRule`), never a silent drop;
 * - a call a rule marks `ask` pauses the turn `awaiting_approval` with one request per call
 *   (`id` = the call's id, `kind: 'tool_call'`, `details.permissionRule` = the rule that
 *   matched); approved on resume it runs once, rejected it gets the usual `approval_rejected`
 *   error. The pending call travels in the continuation and the rules are applied again by the
 *   resuming harness — wrap its registry with the same rules;
 * - an allowed call runs as before, and the tool's own `requiresApproval` still applies: a rule
 *   never lifts an approval the tool asks for. A call the rules deny or ask about is not also
 *   put to the tool's own approval.
 *
 * The input a rule was decided on is the input the tool runs with (a plain copy). Asking needs
 * the harness's own model loop (`context.turn`); elsewhere an `ask` call is refused with
 * `approval_unavailable`.
 * @throws HarnessConfigError when `registry` is not a registry or `rules` is malformed.
 * @example
 * ```ts
 * const tools = withPermissionRules(createBashToolRegistry({ cwd, requiresApproval: false }), agent.permission);
 * ```
 */
export function withPermissionRules(registry: HarnessToolRegistry, rules: PermissionRuleSet): PermissionRuledToolRegistry {
  if (typeof registry?.listAvailable !== 'function' || typeof registry.execute !== 'function') {
    throw new HarnessConfigError('withPermissionRules needs a tool registry (listAvailable and execute).', { field: 'registry' });
  }
  const compiled = compilePermissionRules(rules);
  const names = declaredNames(registry);
  return {
    toolNames: names === undefined ? undefined : Object.freeze(names.filter((name) => !deniesTool(compiled, name))),
    async listAvailable(input) {
      const listed: unknown = await registry.listAvailable(input);
      if (!Array.isArray(listed)) throw new Error('listAvailable did not return an array of tool definitions.');
      const offered: HarnessToolDefinition[] = [];
      for (const definition of listed as unknown[]) {
        if (!isRecord(definition) || typeof definition.name !== 'string') continue;
        if (!deniesTool(compiled, definition.name)) offered.push(withApprovalRule(compiled, definition as unknown as HarnessToolDefinition));
      }
      return offered;
    },
    async execute(call, context) {
      const { id, name } = call;
      const copied = detachValue(call.input ?? {});
      if (!copied.ok || !isRecord(copied.value)) {
        return errorResult(call, 'invalid_input', `The input of ${name} could not be read as a JSON object.`);
      }
      const plain: HarnessToolCall = { id, name, input: copied.value };
      const decision = decideCompiled(compiled, plain);
      if (decision.action === 'allow') return registry.execute(plain, context);
      const rule = decision.rule!;
      if (decision.action === 'deny') {
        return errorResult(plain, 'permission_denied', `${describeRule(rule)} refuses this call. Do not retry it as it is.`, rule);
      }
      return runAsked(registry, plain, rule, context);
    },
  };
}

/**
 * The definition with an approval rule that leaves `ask` to the wrapper (which names the rule) and
 * skips the tool's own approval for calls the rules refuse. Unchanged when no rule can apply.
 */
function withApprovalRule(rules: CompiledRuleSet, definition: HarnessToolDefinition): HarnessToolDefinition {
  const { name } = definition;
  const own = definition.requiresApproval;
  const ruled = rules.has(name) || rules.has(PERMISSION_WILDCARD_TOOL);
  if (!ruled || (!mayAsk(rules, name) && (own === undefined || own === false))) return definition;
  return {
    ...definition,
    requiresApproval: (input) => (decideCompiled(rules, { name, input }).action === 'allow' ? ownApproval(own, input) : false),
  };
}

/** The tool's own approval rule, failing closed like the harness: a throw or a non-`false` answer asks. */
function ownApproval(own: HarnessToolDefinition['requiresApproval'], input: Record<string, unknown>): boolean {
  if (typeof own !== 'function') return Boolean(own);
  try {
    return own(input) !== false;
  } catch {
    return true;
  }
}

async function runAsked(
  registry: HarnessToolRegistry,
  call: HarnessToolCall,
  rule: PermissionRuleMatch,
  context: HarnessToolExecutionContext,
): Promise<HarnessToolResult> {
  const { turn, state } = context;
  const key = `${APPROVED_KEY}${call.id}`;
  const resolution = turn?.resolution;
  const decided = resolution?.type === 'approval' && Object.hasOwn(resolution.decisions, call.id) ? resolution.decisions[call.id] : undefined;
  if (decided === 'rejected') return rejectedToolResult(call);
  if (decided === 'approved' || state?.get(key) === true) {
    if (decided === 'approved') state?.set(key, true);
    return runApproved(registry, call, context, key);
  }
  if (turn === undefined) {
    return errorResult(call, 'approval_unavailable', `${describeRule(rule)} asks for a person's approval, but this turn cannot pause for it.`, rule);
  }
  turn.pause({ type: 'approval', requests: [approvalRequest(call, rule)] });
  return { callId: call.id, toolName: call.name, status: 'success', output: 'Waiting for approval.' };
}

/** Runs an approved call; forgets the approval once the call finished without pausing again. */
async function runApproved(
  registry: HarnessToolRegistry,
  call: HarnessToolCall,
  context: HarnessToolExecutionContext,
  key: string,
): Promise<HarnessToolResult> {
  const { turn } = context;
  let paused = false;
  const watched: HarnessToolTurnSeam | undefined =
    turn === undefined
      ? undefined
      : {
          ...turn,
          pause: (request) => {
            paused = true;
            turn.pause(request);
          },
        };
  const result = await registry.execute(call, { ...context, turn: watched });
  if (!paused) context.state?.set(key, undefined);
  return result;
}

function approvalRequest(call: HarnessToolCall, rule: PermissionRuleMatch): HarnessToolApprovalRequest {
  return {
    id: call.id,
    kind: 'tool_call',
    summary: `${approvalSummary(call)} (${describeRule(rule)})`,
    details: { toolName: call.name, input: call.input, permissionRule: plainRule(rule) },
  };
}

/** `The permission rule bash "git push*": ask`, shortened. */
function describeRule(rule: PermissionRuleMatch): string {
  const pattern = rule.pattern === undefined ? '' : ` ${JSON.stringify(rule.pattern.length > 120 ? `${rule.pattern.slice(0, 120)}…` : rule.pattern)}`;
  return `The permission rule ${rule.tool}${pattern}: ${rule.action}`;
}

function plainRule(rule: PermissionRuleMatch): Record<string, string> {
  return rule.pattern === undefined ? { tool: rule.tool, action: rule.action } : { tool: rule.tool, pattern: rule.pattern, action: rule.action };
}

function errorResult(call: HarnessToolCall, code: string, message: string, rule?: PermissionRuleMatch): HarnessToolResult {
  return {
    callId: call.id,
    toolName: call.name,
    status: 'error',
    error: { code, message, retryable: true, ...(rule === undefined ? {} : { metadata: { permissionRule: plainRule(rule) } }) },
  };
}
