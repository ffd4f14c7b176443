import type { VfsProvider } from '@agent-assistant/vfs';
import type { HarnessBaseConfig } from '../../core/types/config.js';
import type { HarnessModelAdapter } from '../../core/types/model.js';
import type { HarnessRuntime, HarnessTurnOutput, HarnessTurnStream } from '../../core/types/runtime.js';
import type { HarnessResult } from '../../core/types/result.js';
import type { ExecutionAdapter } from '../../execution/types.js';
import type { CreateModelFromProfileOptions, ProviderProfileSet } from '../../providers/profiles/provider-profile-types.js';
import type { HarnessOutputSchema } from '../../shared/types/schema.js';
import type { HarnessToolRegistry } from '../../shared/types/tools.js';
import type { HarnessInstructions, HarnessRunOptions, HarnessTurnInput } from '../../shared/types/turn-input.js';
import type { ProjectAgent, ProjectInstructionsInfo } from '../agent-project-types.js';

/**
 * Where secret values come from: a map or a plain object of name → value, or a function of the
 * name (e.g. over Workers bindings). An agent reads only the names its grants allow; every other
 * name reads as `undefined` without the source being asked.
 */
export type AgentSecretSource =
  | ReadonlyMap<string, string>
  | Readonly<Record<string, string | undefined>>
  | ((name: string) => string | undefined);

/** What the `tools` function of {@link CreateAgentHarnessOptions} gets, once per agent (the turn's agent and each subagent). */
export interface AgentToolContext {
  /** The agent the tools are for. */
  readonly agent: ProjectAgent;
  /**
   * A secret's value, when the agent is granted its name (manifest `secrets` and nothing else) and
   * the `secrets` source has it; otherwise `undefined`. Give it to the tools that need it (a
   * token, an environment variable); never put it in a tool's output.
   */
  secret(name: string): string | undefined;
}

/** Options of `createAgentHarness`. */
export interface CreateAgentHarnessOptions extends Omit<HarnessBaseConfig, 'tools' | 'resultMetadata'> {
  /** The agent whose turns the harness runs. @default the project's `defaultAgent` */
  agent?: string | undefined;
  /**
   * The provider profiles an agent's `model` names (a profile id or alias, `parseProviderProfiles`).
   * The agent's `temperature` and `top_p` are applied to the profile's model.
   */
  profiles?: ProviderProfileSet | undefined;
  /** How models are made from `profiles`: `env` (keys, e.g. Workers bindings), `fetch`, `retry`, `timeoutMs`. */
  profileOptions?: Omit<CreateModelFromProfileOptions, 'sampling'> | undefined;
  /** The model of agents whose file names no `model` (they may not set `temperature` or `top_p`). */
  model?: HarnessModelAdapter | undefined;
  /**
   * An execution backend (a local CLI, an engine session) that runs the turn instead of a model.
   * What the agent needs must be among what the backend honours (`capabilities.agentProject`),
   * else `FeatureNotSupportedError`; the agent's permission rules answer the engine's permission
   * requests.
   */
  backend?: ExecutionAdapter | undefined;
  /**
   * The product's tools: one registry for every agent, or a function building an agent's
   * registry (called once per agent, with the secrets that agent may read). Each agent is offered
   * only the tools both its manifest entry and its file allow, narrowed by its permission rules.
   */
  tools?: HarnessToolRegistry | ((context: AgentToolContext) => HarnessToolRegistry | undefined) | undefined;
  /** Secret values; an agent reads only the names it is granted (deny by default). */
  secrets?: AgentSecretSource | undefined;
  /** The VFS the project was loaded from: the `skill` tool reads skills' files through it. Needed when a skill is granted. */
  vfs?: VfsProvider | undefined;
  /** Bytes of text one `skill` call returns (see `createSkillToolRegistry`). @default 51200 */
  skillMaxBytes?: number | undefined;
  /**
   * How deeply subagents nest: the turn's agent is depth 0, its subagents 1, theirs 2. An agent at
   * this depth is not offered the `task` tool, whatever it is granted. 1 to 5. @default 2
   */
  maxSubagentDepth?: number | undefined;
}

/**
 * The input of an agent harness's turn: a turn input whose system prompt comes from the project.
 * `instructions` may carry a `developerPrompt` and `responseStyle`; a `systemPrompt` is refused.
 */
export type AgentTurnInput = Omit<HarnessTurnInput, 'instructions'> & {
  instructions?: Omit<HarnessInstructions, 'systemPrompt'> | undefined;
};

/** What a turn's `metadata.agentProject` says. */
export interface AgentTurnProjectMetadata {
  /** The agent that ran the turn. */
  agent: string;
  /** The project instructions in its system prompt (`{ source, path, bytes, sha }`), or `null`. */
  instructions: ProjectInstructionsInfo | null;
}

/** A harness running one agent of a project (see `createAgentHarness`). Its turns' input has no system prompt: the project gives it. */
export interface AgentHarness<TOutput = unknown> {
  /** The agent whose turns it runs. */
  readonly agent: ProjectAgent;
  /** Its system prompt: the agent's prompt, then the project instructions. */
  readonly systemPrompt: string;
  /** The project instructions in the system prompt, as every turn's `metadata.agentProject.instructions` reports them. */
  readonly instructions: ProjectInstructionsInfo | null;
  /** Runs a turn of the agent; see `HarnessRuntime.runTurn`. */
  runTurn<TSchema extends HarnessOutputSchema | undefined = undefined>(
    input: AgentTurnInput,
    options?: HarnessRunOptions<TSchema>,
  ): Promise<HarnessResult<HarnessTurnOutput<TSchema, TOutput>>>;
  /** Streams a turn of the agent; see `HarnessRuntime.streamTurn`. */
  streamTurn<TSchema extends HarnessOutputSchema | undefined = undefined>(
    input: AgentTurnInput,
    options?: HarnessRunOptions<TSchema>,
  ): HarnessTurnStream<HarnessTurnOutput<TSchema, TOutput>>;
  /** Resumes a paused turn of the agent (made by any agent harness of the same project and agent); see `HarnessRuntime.resumeTurn`. */
  resumeTurn: HarnessRuntime<TOutput>['resumeTurn'];
  /** Streams a resumed turn; see `HarnessRuntime.streamResumeTurn`. */
  streamResumeTurn: HarnessRuntime<TOutput>['streamResumeTurn'];
}
