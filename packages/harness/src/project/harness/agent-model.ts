import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelAdapter } from '../../core/types/model.js';
import { createModelFromProfile } from '../../providers/profiles/create-model-from-profile.js';
import type { ProjectAgent } from '../agent-project-types.js';
import type { CreateAgentHarnessOptions } from './agent-harness-types.js';

/**
 * The model an agent runs with: its file's `model` (a profile id or alias) from `profiles`, with
 * its `temperature` and `top_p`; else the product's `model`. Nothing the file asks for is dropped:
 * a `model` without `profiles`, no model at all, or sampling on a model not made from a profile
 * throw.
 * @throws HarnessConfigError naming the agent and what to give.
 */
export function agentModel(agent: ProjectAgent, options: CreateAgentHarnessOptions): HarnessModelAdapter {
  const field = `agents.${agent.name}.model`;
  const file = `${agent.name} (${agent.path})`;
  if (agent.model === undefined) {
    if (options.model === undefined) {
      throw new HarnessConfigError(`Agent ${file} names no model: give createAgentHarness a model, or the agent file a model from the profiles.`, { field });
    }
    if (agent.temperature !== undefined || agent.topP !== undefined) {
      throw new HarnessConfigError(
        `Agent ${file} sets temperature or top_p, which only a model made from a provider profile can apply: name a profile in its model key (and give profiles).`,
        { field: `agents.${agent.name}.temperature` },
      );
    }
    return options.model;
  }
  if (options.profiles === undefined) {
    throw new HarnessConfigError(`Agent ${file} names the model ${JSON.stringify(agent.model)}: give createAgentHarness the provider profiles it is in.`, { field });
  }
  try {
    const { env, fetch, retry, timeoutMs } = options.profileOptions ?? {};
    return createModelFromProfile(options.profiles, agent.model, { env, fetch, retry, timeoutMs, sampling: { temperature: agent.temperature, topP: agent.topP } });
  } catch (error) {
    if (!HarnessConfigError.isInstance(error)) throw error;
    throw new HarnessConfigError(`Agent ${file}: ${error.message}`, { field, cause: error });
  }
}
