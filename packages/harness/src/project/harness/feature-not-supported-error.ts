import { HarnessError } from '../../core/errors/harness-error.js';
import { hasErrorMarker } from '../../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.FeatureNotSupportedError');

/**
 * A feature of an agent project that a backend may not honour:
 * - `instructions`: the system prompt (the agent's prompt and `AGENTS.md`);
 * - `tools`: the product's tools the agent is granted;
 * - `skills`: the `skill` tool (the agent is granted a skill);
 * - `subagents`: the `task` tool (the agent is granted a subagent);
 * - `permissionRules`: the agent's `permission` rules, applied to the engine's own tools;
 * - `model`: the agent file's `model` (a backend runs its own model);
 * - `sampling`: the agent file's `temperature` or `top_p`.
 */
export type AgentProjectFeature = 'instructions' | 'tools' | 'skills' | 'subagents' | 'permissionRules' | 'model' | 'sampling';

/**
 * `createAgentHarness` was asked to run an agent on a backend that does not honour something the
 * agent needs (see `ExecutionCapabilities.agentProject`): nothing of the project is ignored
 * silently. `feature` names the first, `features` all of them. Code
 * `HARNESS_ERR_FEATURE_NOT_SUPPORTED`.
 */
export class FeatureNotSupportedError extends HarnessError {
  /** The first feature the backend does not honour. */
  readonly feature: AgentProjectFeature;
  /** Every feature the agent needs and the backend does not honour, in the order of {@link AgentProjectFeature}. */
  readonly features: readonly AgentProjectFeature[];
  /** The backend's id. */
  readonly backendId: string;
  /** The agent that needs them. */
  readonly agent: string;

  constructor(features: readonly AgentProjectFeature[], details: { backendId: string; agent: string }) {
    super(
      'HARNESS_ERR_FEATURE_NOT_SUPPORTED',
      `Agent ${JSON.stringify(details.agent)} needs ${features.join(', ')}, which backend ${JSON.stringify(details.backendId)} does not honour ` +
        '(its capabilities.agentProject). Run the agent on a model, or change its project.',
    );
    Object.defineProperty(this, marker, { value: true });
    this.name = 'FeatureNotSupportedError';
    this.feature = features[0]!;
    this.features = Object.freeze([...features]);
    this.backendId = details.backendId;
    this.agent = details.agent;
  }

  /** True for any `FeatureNotSupportedError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is FeatureNotSupportedError {
    return hasErrorMarker(value, marker);
  }
}
