import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelAdapter } from '../../core/types/model.js';
import type { HarnessToolRegistry } from '../../shared/types/tools.js';
import { composeToolRegistries, declaredNames } from '../../tools/compose-tool-registries.js';
import { filterToolRegistry } from '../../tools/filter-tool-registry.js';
import { createSubagentToolRegistry } from '../../tools/subagents/create-subagent-tool-registry.js';
import type { SubagentDefinition } from '../../tools/subagents/subagent-definition.js';
import type { AgentProject, ProjectAgent, ProjectSkill } from '../agent-project-types.js';
import { projectAccessAllows } from '../load/resolve-grants.js';
import { withPermissionRules } from '../permissions/with-permission-rules.js';
import { createSkillToolRegistry } from '../skills/create-skill-tool-registry.js';
import type { CreateAgentHarnessOptions } from './agent-harness-types.js';
import { grantedSecrets, secretLookup } from './agent-secrets.js';
import { agentSystemPrompt } from './agent-system-prompt.js';

/** Builds each agent's tools (and its subagents', recursively), once per agent and depth. */
export interface AgentToolBuilder {
  /**
   * The agent's registry at `depth` (0: the turn's agent): the granted product tools, the `skill`
   * tool when a skill is granted, the `task` tool when a subagent is granted and `depth` is below
   * `maxSubagentDepth` — all under the agent's permission rules. `undefined` when it has none.
   */
  toolsFor(agent: ProjectAgent, depth: number): HarnessToolRegistry | undefined;
}

/**
 * @param modelFor the model a subagent runs with.
 * @throws HarnessConfigError for an unusable `tools` registry, a granted skill without `vfs`, or bad options.
 */
export function createAgentToolBuilder(
  project: AgentProject,
  options: CreateAgentHarnessOptions,
  modelFor: (agent: ProjectAgent) => HarnessModelAdapter,
): AgentToolBuilder {
  const maxDepth = options.maxSubagentDepth ?? 2;
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 5) {
    throw new HarnessConfigError('maxSubagentDepth must be a whole number from 1 to 5.', { field: 'maxSubagentDepth' });
  }
  const secrets = secretLookup(options.secrets);
  const built = new Map<string, HarnessToolRegistry | undefined>();

  const productTools = (agent: ProjectAgent): HarnessToolRegistry | undefined => {
    const source = options.tools;
    const access = agent.effective.tools;
    if (source === undefined || (access.kind === 'only' && access.names.length === 0)) return undefined;
    const registry = typeof source === 'function' ? source({ agent, secret: grantedSecrets(secrets, agent.effective.secrets) }) : source;
    if (registry === undefined) return undefined;
    if (typeof registry?.listAvailable !== 'function' || typeof registry.execute !== 'function') {
      throw new HarnessConfigError(`tools did not give agent ${JSON.stringify(agent.name)} a tool registry (listAvailable and execute).`, { field: 'tools' });
    }
    const allows = (name: string) => projectAccessAllows(access, name);
    return filterToolRegistry(registry, allows, {
      toolNames: declaredNames(registry)?.filter(allows),
      refusal: (name) => `Agent ${agent.name} is not granted the tool "${name}".`,
    });
  };

  const skillTool = (agent: ProjectAgent): HarnessToolRegistry | undefined => {
    if (agent.effective.skills.length === 0) return undefined;
    if (options.vfs === undefined) {
      throw new HarnessConfigError(`Agent ${JSON.stringify(agent.name)} is granted skills: give createAgentHarness the project's vfs to read them.`, { field: 'vfs' });
    }
    const skills = agent.effective.skills.map((name) => project.skills.get(name)).filter((skill): skill is ProjectSkill => skill !== undefined);
    return createSkillToolRegistry({ vfs: options.vfs, skills, maxBytes: options.skillMaxBytes });
  };

  const subagent = (agent: ProjectAgent, depth: number): SubagentDefinition => {
    const prompt = agentSystemPrompt(agent, project.instructions);
    const tools = toolsFor(agent, depth);
    return {
      name: agent.name,
      description: agent.description ?? `The ${agent.name} agent.`,
      systemPrompt: prompt === '' ? `You are the ${agent.name} agent.` : prompt,
      model: modelFor(agent),
      ...(tools === undefined ? {} : { tools }),
      ...(agent.steps === undefined ? {} : { limits: { maxIterations: agent.steps } }),
    };
  };

  const taskTool = (agent: ProjectAgent, depth: number): HarnessToolRegistry | undefined => {
    if (agent.effective.subagents.length === 0 || depth >= maxDepth) return undefined;
    const subagents = agent.effective.subagents
      .map((name) => project.agents.get(name))
      .filter((entry): entry is ProjectAgent => entry !== undefined)
      .map((entry) => subagent(entry, depth + 1));
    return subagents.length === 0 ? undefined : createSubagentToolRegistry({ subagents, maxDepth: 1 });
  };

  const toolsFor = (agent: ProjectAgent, depth: number): HarnessToolRegistry | undefined => {
    const key = JSON.stringify([depth, agent.name]);
    if (built.has(key)) return built.get(key);
    const parts = [productTools(agent), skillTool(agent), taskTool(agent, depth)].filter((part): part is HarnessToolRegistry => part !== undefined);
    const tools = parts.length === 0 ? undefined : withPermissionRules(parts.length === 1 ? parts[0]! : composeToolRegistries(...parts), agent.permission);
    built.set(key, tools);
    return tools;
  };

  return { toolsFor };
}
