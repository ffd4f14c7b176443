import { createHarness } from '../../core/create-harness.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessBaseConfig, HarnessConfig, HarnessLimits } from '../../core/types/config.js';
import type { HarnessModelAdapter } from '../../core/types/model.js';
import type { HarnessRuntime } from '../../core/types/runtime.js';
import { isRecord } from '../../shared/is-record.js';
import type { HarnessOutputSchema, InferHarnessOutput } from '../../shared/types/schema.js';
import type { HarnessTurnInput } from '../../shared/types/turn-input.js';
import type { AgentProject, ProjectAgent } from '../agent-project-types.js';
import { agentBackendNeeds, checkBackendFeatures, withEngineRules } from './agent-backend.js';
import type { AgentHarness, AgentTurnInput, AgentTurnProjectMetadata, CreateAgentHarnessOptions } from './agent-harness-types.js';
import { agentModel } from './agent-model.js';
import { agentSystemPrompt } from './agent-system-prompt.js';
import { createAgentToolBuilder } from './agent-tools.js';

/**
 * Creates a harness that runs one agent of a loaded project (`loadAgentProject`). From the
 * project come:
 *
 * - **the system prompt**: the agent file's body, then `AGENTS.md` (or `CLAUDE.md`) as one
 *   section after it; a turn's input gives no `systemPrompt` (a `developerPrompt` is fine);
 * - **the model**: the file's `model` (a profile id or alias in `profiles`) with its
 *   `temperature` and `top_p`; an agent without `model` uses `options.model`;
 * - **limits**: `steps` is the turn's `maxIterations` (never more than `limits.maxIterations`
 *   when that is given);
 * - **tools**: only what both the manifest and the agent file grant, from `options.tools`, under
 *   the agent's permission rules (a tool its rules deny outright is not offered); the `skill`
 *   tool when a skill is granted, the `task` tool when a subagent is granted — each subagent
 *   built the same way from its own file and grants;
 * - **secrets**: an agent reads only the secret names it is granted, through `AgentToolContext`.
 *
 * Every result's `metadata.agentProject` says which agent ran and which instructions were in its
 * prompt (`{ source, path, bytes, sha }` or `null`). A paused turn resumes on any agent harness of
 * the same project and agent (another process too, with the same `continuationSecret`); the
 * resuming harness applies its rules again.
 *
 * With `backend` instead of a model, what the agent needs must be among what the backend honours
 * (`capabilities.agentProject`), and the agent's rules answer the engine's permission requests.
 *
 * @throws HarnessConfigError for an unknown agent, a subagent-only agent, a model that cannot be
 *   made, a granted skill without `vfs`, or an invalid option.
 * @throws FeatureNotSupportedError when the backend does not honour what the agent needs.
 * @example
 * ```ts
 * const project = await loadAgentProject(vfs);
 * const harness = createAgentHarness(project, { profiles, tools, secrets: env, vfs });
 * const result = await harness.runTurn({ assistantId: 'a', turnId: 't1', message });
 * ```
 */
export function createAgentHarness<TSchema extends HarnessOutputSchema | undefined = undefined>(
  project: AgentProject,
  options: CreateAgentHarnessOptions & { output?: TSchema },
): AgentHarness<InferHarnessOutput<TSchema>> {
  checkProject(project);
  if (!isRecord(options as unknown)) throw new HarnessConfigError('createAgentHarness needs options.', { field: 'options' });
  const agent = chooseAgent(project, options.agent);
  const { backend } = options;
  if (backend !== undefined && options.model !== undefined) throw new HarnessConfigError('Give model or backend, not both.', { field: 'backend' });
  const systemPrompt = agentSystemPrompt(agent, project.instructions);
  if (backend !== undefined) checkBackendFeatures(backend, agent, agentBackendNeeds(agent, systemPrompt, options.tools !== undefined));

  const models = new Map<string, HarnessModelAdapter>();
  const modelFor = (entry: ProjectAgent): HarnessModelAdapter => {
    let model = models.get(entry.name);
    if (model === undefined) {
      model = agentModel(entry, options);
      models.set(entry.name, model);
    }
    return model;
  };
  const tools = createAgentToolBuilder(project, options, modelFor).toolsFor(agent, 0);
  const metadata: AgentTurnProjectMetadata = { agent: agent.name, instructions: project.instructions?.info ?? null };
  const shared: HarnessBaseConfig = {
    ...baseConfig(options),
    limits: agentLimits(agent, options.limits),
    resultMetadata: { agentProject: metadata },
    ...(tools === undefined ? {} : { tools }),
  };
  const config: HarnessConfig =
    backend === undefined
      ? { ...shared, model: modelFor(agent) }
      : { ...shared, backend: agent.permission.tools.size > 0 ? withEngineRules(backend, agent.permission) : backend };
  const inner = createHarness(config) as HarnessRuntime<InferHarnessOutput<TSchema>>;
  const withPrompt = (input: AgentTurnInput): HarnessTurnInput => turnInput(input, systemPrompt);
  return Object.freeze({
    agent,
    systemPrompt,
    instructions: metadata.instructions,
    runTurn: (input, runOptions) => {
      try {
        return inner.runTurn(withPrompt(input), runOptions);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    streamTurn: (input, runOptions) => inner.streamTurn(withPrompt(input), runOptions),
    resumeTurn: (continuation, resolution, resumeOptions) => inner.resumeTurn(continuation, resolution, resumeOptions),
    streamResumeTurn: (continuation, resolution, resumeOptions) => inner.streamResumeTurn(continuation, resolution, resumeOptions),
  } satisfies AgentHarness<InferHarnessOutput<TSchema>>);
}

function checkProject(value: AgentProject): void {
  const project: unknown = value;
  const readable = (map: unknown) => isRecord(map) && typeof map.get === 'function' && typeof map.keys === 'function';
  if (!isRecord(project) || !readable(project.agents) || !readable(project.skills) || typeof project.defaultAgent !== 'string') {
    throw new HarnessConfigError('createAgentHarness needs a project loaded by loadAgentProject.', { field: 'project' });
  }
}

function chooseAgent(project: AgentProject, name: string | undefined): ProjectAgent {
  if (name !== undefined && typeof name !== 'string') throw new HarnessConfigError('agent must be the name of an agent of the project.', { field: 'agent' });
  const chosen = name ?? project.defaultAgent;
  const agent = project.agents.get(chosen);
  if (agent === undefined) {
    const known = [...project.agents.keys()].slice(0, 20).join(', ');
    throw new HarnessConfigError(`The project has no agent ${JSON.stringify(chosen.slice(0, 64))}; its agents: ${known}.`, { field: 'agent' });
  }
  if (agent.mode === 'subagent') {
    throw new HarnessConfigError(`Agent ${JSON.stringify(chosen)} has mode subagent: it runs only when another agent starts it.`, { field: 'agent' });
  }
  return agent;
}

/** The harness options createAgentHarness passes on as they are. */
function baseConfig(options: CreateAgentHarnessOptions): HarnessBaseConfig {
  const { approvals, trace, clock, hooks, continuationSecret, unsignedContinuations, continuationTtlMs, resumeGuard, requirements, generateId, output } = options;
  const picked: HarnessBaseConfig = { approvals, trace, clock, hooks, continuationSecret, unsignedContinuations, continuationTtlMs, resumeGuard, requirements, generateId, output };
  return Object.fromEntries(Object.entries(picked).filter(([, value]) => value !== undefined)) as HarnessBaseConfig;
}

/** The product's limits, with the agent's `steps` as `maxIterations` (the lower of the two when both are given). */
function agentLimits(agent: ProjectAgent, limits: HarnessLimits | undefined): HarnessLimits | undefined {
  if (agent.steps === undefined) return limits;
  const given = limits?.maxIterations;
  return { ...limits, maxIterations: typeof given === 'number' ? Math.min(given, agent.steps) : agent.steps };
}

/** The turn input with the project's system prompt; a caller's own `systemPrompt` is refused, never merged or dropped. */
function turnInput(input: AgentTurnInput, systemPrompt: string): HarnessTurnInput {
  if (!isRecord(input as unknown)) throw new HarnessConfigError('Invalid turn input: input must be an object.', { field: 'input' });
  const given: unknown = input.instructions;
  if (given !== undefined && !isRecord(given)) throw new HarnessConfigError('Invalid turn input: instructions must be an object.', { field: 'input.instructions' });
  if (given !== undefined && given.systemPrompt !== undefined) {
    throw new HarnessConfigError(
      'The agent project gives the system prompt; leave instructions.systemPrompt out (use developerPrompt for instructions of this turn).',
      { field: 'input.instructions.systemPrompt' },
    );
  }
  return { ...input, instructions: { ...given, systemPrompt } };
}
