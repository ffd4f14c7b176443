export { createAgentHarness } from './create-agent-harness.js';
export { FeatureNotSupportedError, type AgentProjectFeature } from './feature-not-supported-error.js';
export { ENGINE_PERMISSION_KEYS } from './agent-backend.js';
export type {
  AgentHarness,
  AgentSecretSource,
  AgentToolContext,
  AgentTurnInput,
  AgentTurnProjectMetadata,
  CreateAgentHarnessOptions,
} from './agent-harness-types.js';
