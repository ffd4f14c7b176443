import type {
  ExecutionAdapter,
  ExecutionPermissionRequest,
  ExecutionPermissionVerdict,
  ExecutionProjectCapabilities,
  ExecutionToolActivityKind,
} from '../../execution/types.js';
import type { ProjectAgent } from '../agent-project-types.js';
import type { PermissionRuleSet } from '../permission-types.js';
import { decidePermission } from '../permissions/decide-permission.js';
import { FeatureNotSupportedError, type AgentProjectFeature } from './feature-not-supported-error.js';
import { defineExecutionAdapter } from '../../core/define-execution-adapter.js';

/** What an agent asks of a backend, in the order `FeatureNotSupportedError.features` lists them. */
export interface AgentBackendNeeds {
  instructions: boolean;
  tools: boolean;
  skills: boolean;
  subagents: boolean;
  permissionRules: boolean;
  model: boolean;
  sampling: boolean;
}

/** The features an agent needs, given its system prompt and whether the product gives tools. */
export function agentBackendNeeds(agent: ProjectAgent, systemPrompt: string, productTools: boolean): AgentBackendNeeds {
  const tools = agent.effective.tools;
  return {
    instructions: systemPrompt !== '',
    tools: productTools && !(tools.kind === 'only' && tools.names.length === 0),
    skills: agent.effective.skills.length > 0,
    subagents: agent.effective.subagents.length > 0,
    permissionRules: agent.permission.tools.size > 0,
    model: agent.model !== undefined,
    sampling: agent.temperature !== undefined || agent.topP !== undefined,
  };
}

/**
 * Refuses a backend that does not honour everything the agent needs (its
 * `capabilities.agentProject`; absent fields are `false` except `instructions`). A backend never
 * honours `model` or `sampling`: it runs its own model.
 * @throws FeatureNotSupportedError naming every such feature.
 */
export function checkBackendFeatures(backend: ExecutionAdapter, agent: ProjectAgent, needs: AgentBackendNeeds): void {
  const declared: ExecutionProjectCapabilities = backend.describeCapabilities().agentProject ?? {};
  const honours: Readonly<Record<AgentProjectFeature, boolean>> = {
    instructions: declared.instructions !== false,
    tools: declared.tools === true,
    skills: declared.skills === true,
    subagents: declared.subagents === true,
    permissionRules: declared.permissionRules === true,
    model: false,
    sampling: false,
  };
  const missing = (Object.keys(needs) as AgentProjectFeature[]).filter((feature) => needs[feature] && !honours[feature]);
  if (missing.length > 0) throw new FeatureNotSupportedError(missing, { backendId: backend.backendId, agent: agent.name });
}

/**
 * The rule key an engine's permission request is decided under: `bash` for a command (its
 * command the subject), else the kind of work — `edit`, `read`, `search`, `webfetch` (fetch),
 * `think`, `other`. The `*` rules apply to every request.
 */
export const ENGINE_PERMISSION_KEYS: Readonly<Record<ExecutionToolActivityKind, string>> = /* @__PURE__ */ Object.freeze({
  command: 'bash',
  edit: 'edit',
  read: 'read',
  search: 'search',
  fetch: 'webfetch',
  think: 'think',
  other: 'other',
});

/**
 * What the agent's rules say to an engine's permission request: a matching `allow` rule
 * approves it in the engine, `deny` rejects it, `ask` — and a request no rule matches — pauses
 * the turn for a person, as the engine asked.
 */
export function engineVerdict(rules: PermissionRuleSet, request: ExecutionPermissionRequest): ExecutionPermissionVerdict {
  const kind = request.kind ?? 'other';
  const name = Object.hasOwn(ENGINE_PERMISSION_KEYS, kind) ? ENGINE_PERMISSION_KEYS[kind] : 'other';
  const command = typeof request.command === 'string' ? request.command : undefined;
  const decision = decidePermission(rules, { name, input: name === 'bash' && command !== undefined ? { command } : {} });
  if (decision.rule === undefined) return 'ask';
  return decision.action === 'allow' ? 'approve' : decision.action === 'deny' ? 'reject' : 'ask';
}

/** The backend, its engine's permission requests answered by the agent's rules (`onPermissionRequest`). */
export function withEngineRules(backend: ExecutionAdapter, rules: PermissionRuleSet): ExecutionAdapter {
  return defineExecutionAdapter({
    backendId: backend.backendId,
    describeCapabilities: () => backend.describeCapabilities(),
    negotiate: (request) => backend.negotiate(request),
    execute: (request, options) => backend.execute(request, { ...options, onPermissionRequest: (asked) => engineVerdict(rules, asked) }),
  });
}
