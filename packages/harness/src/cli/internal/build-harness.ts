import { join } from 'node:path';
import { createNodeFsVfs } from '@agent-assistant/vfs/node';
import { createHarness } from '../../core/create-harness.js';
import { createFileResumeGuard } from '../../core/continuation/file-resume-guard.js';
import type { HarnessLimits } from '../../core/types/config.js';
import type { HarnessRuntime, HarnessTurnStream } from '../../core/types/runtime.js';
import type { HarnessTraceSink } from '../../core/types/trace.js';
import type { ExecutionAdapter } from '../../execution/types.js';
import { createLocalBackendAdapter } from '../../local/create-local-backend-adapter.js';
import { AgentProjectError } from '../../project/agent-project-error.js';
import type { AgentProject } from '../../project/agent-project-types.js';
import type { AgentHarness, AgentTurnInput, CreateAgentHarnessOptions } from '../../project/harness/agent-harness-types.js';
import { createAgentHarness } from '../../project/harness/create-agent-harness.js';
import { FeatureNotSupportedError } from '../../project/harness/feature-not-supported-error.js';
import { loadAgentProject } from '../../project/load/load-agent-project.js';
import { createModelFromProfile } from '../../providers/profiles/create-model-from-profile.js';
import type { ProfileModel, ProviderProfileSet } from '../../providers/profiles/provider-profile-types.js';
import type { HarnessToolRegistry } from '../../shared/types/tools.js';
import { composeToolRegistries } from '../../tools/compose-tool-registries.js';
import { createQuestionToolRegistry } from '../../tools/question/create-question-tool-registry.js';
import { createWorkspaceToolRegistry } from '../../tools/workspace/create-workspace-tool-registry.js';
import { usageError } from './cli-usage-error.js';
import { readProfilesFile } from './read-profiles-file.js';
import { requireApprovalFor } from './require-approval.js';
import type { RunSettings } from './run-settings.js';

/** The environment variable naming the CLI's state directory (resume claims). */
export const STATE_DIR_ENV = 'AGENT_ASSISTANT_STATE_DIR';

/** What the CLI runs a turn with: a harness whose system prompt is the caller's or the project's. */
export interface CliHarness {
  /** Streams a turn; `systemPrompt` is used unless an agent project gives the prompt. */
  streamTurn(input: AgentTurnInput, options: { signal: AbortSignal }): HarnessTurnStream;
  resumeTurn: HarnessRuntime['resumeTurn'];
}

/** A harness built from run settings, and a one-line description of what runs. */
export interface BuiltHarness {
  harness: CliHarness;
  /** e.g. `profile local (openai-chat gpt-4.1-mini)`, `backend claude-code` or `project ./p agent lead (profile …)`. */
  label: string;
}

/** Options of {@link buildHarness}. */
export interface BuildHarnessOptions {
  env: Readonly<Record<string, string | undefined>>;
  /** Signs (and verifies) the turn's continuations; see `readContinuationSecret`. */
  continuationSecret: string | undefined;
  /** Make every continuation resumable once, across processes on this machine. */
  resumeOnce: boolean;
  /** Home directory, for the default state directory. */
  home: string;
  /** Receives the turn's trace events. */
  trace?: HarnessTraceSink | undefined;
  /** The system prompt of a turn without an agent project. @default a short helpful-assistant prompt */
  systemPrompt?: string | undefined;
}

/** The system prompt of `run` without `--system` or `--project`. */
export const DEFAULT_SYSTEM_PROMPT = 'You are a helpful assistant. Answer concisely.';

/**
 * Builds the harness a run or resume uses: a profile's model with the workspace tools and (with
 * `questionTool`) the `question` tool, or a local CLI backend working in the workspace — or, with
 * `project`, that project's agent over either.
 * @throws HarnessConfigError with a message that names the fix.
 */
export async function buildHarness(settings: RunSettings, options: BuildHarnessOptions): Promise<BuiltHarness> {
  const { continuationSecret } = options;
  const limits: HarnessLimits = {
    ...(settings.maxIterations === undefined ? {} : { maxIterations: settings.maxIterations }),
    ...(settings.maxToolCalls === undefined ? {} : { maxToolCalls: settings.maxToolCalls }),
    ...(settings.timeoutMs === undefined ? {} : { maxElapsedMs: settings.timeoutMs }),
    ...(settings.budget === undefined ? {} : { budgetLimit: settings.budget }),
  };
  const common = {
    limits,
    ...(options.trace === undefined ? {} : { trace: options.trace }),
    ...(continuationSecret === undefined ? {} : { continuationSecret }),
    ...(options.resumeOnce
      ? {
          resumeGuard: createFileResumeGuard({
            directory: join(stateDirectory(options), 'resume-claims'),
          }),
        }
      : {}),
  };
  const backend = settings.backend === undefined ? undefined : localBackend(settings.backend, settings);
  if (settings.project !== undefined) return buildAgentHarness(settings.project, settings, options, { ...common, backend });
  const withPrompt = (runtime: HarnessRuntime): CliHarness => ({
    streamTurn: (input, runOptions) =>
      runtime.streamTurn({ ...input, instructions: { ...input.instructions, systemPrompt: options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT } }, runOptions),
    resumeTurn: (continuation, resolution, resumeOptions) => runtime.resumeTurn(continuation, resolution, resumeOptions),
  });
  if (backend !== undefined) {
    return {
      harness: withPrompt(createHarness({ backend, ...common })),
      label: `backend ${backend.backendId}`,
    };
  }
  if (settings.profiles === undefined || settings.profile === undefined) {
    throw usageError('Say what runs the turn: --profiles FILE --profile ID, or --backend ID (see `agent-assistant probe`).', 'profile');
  }
  const set = await readProfilesFile(settings.profiles);
  const model = createModelFromProfile(set, settings.profile, {
    env: options.env,
  });
  const tools = await cliTools(settings);
  return {
    harness: withPrompt(
      createHarness({
        model,
        ...(tools === undefined ? {} : { tools }),
        ...common,
      }),
    ),
    label: profileLabel(set, model),
  };
}

function localBackend(id: string, settings: RunSettings): ExecutionAdapter {
  return createLocalBackendAdapter(id, {
    ...(settings.backendCommand === undefined ? {} : { command: settings.backendCommand }),
    ...(settings.model === undefined ? {} : { model: settings.model }),
    ...(settings.workspace === undefined ? {} : { cwd: settings.workspace }),
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
  });
}

/** The workspace tools over `workspace` (approval-gated as asked) and the `question` tool, as the settings say. */
async function cliTools(settings: RunSettings): Promise<HarnessToolRegistry | undefined> {
  const workspaceTools =
    settings.workspace === undefined
      ? undefined
      : await requireApprovalFor(
          createWorkspaceToolRegistry({
            vfs: createNodeFsVfs({ root: settings.workspace }),
          }),
          settings.requireApproval,
        );
  const questionTools = settings.questionTool === true ? createQuestionToolRegistry() : undefined;
  return workspaceTools !== undefined && questionTools !== undefined ? composeToolRegistries(questionTools, workspaceTools) : (workspaceTools ?? questionTools);
}

function profileLabel(set: ProviderProfileSet, model: ProfileModel): string {
  const profile = set.profiles.find((entry) => entry.id === model.profileId);
  return `profile ${model.profileId}${profile === undefined ? '' : ` (${profile.protocol} ${profile.model})`}`;
}

/**
 * The agent of the project in `directory`: its prompt, model (from `--profiles`; `--profile` for
 * agents that name none), tools (the CLI's, as its grants allow), skills, subagents and rules.
 * A project that does not load, or a backend that does not honour what the agent needs, is a
 * usage error that says so.
 */
async function buildAgentHarness(
  directory: string,
  settings: RunSettings,
  options: BuildHarnessOptions,
  common: Pick<CreateAgentHarnessOptions, 'limits' | 'trace' | 'continuationSecret' | 'resumeGuard'> & { backend: ExecutionAdapter | undefined },
): Promise<BuiltHarness> {
  const vfs = createNodeFsVfs({ root: directory });
  let project: AgentProject;
  try {
    project = await loadAgentProject(vfs);
  } catch (error) {
    if (!AgentProjectError.isInstance(error)) throw error;
    throw usageError(`The agent project ${directory} does not load (see \`agent-assistant project check\`): ${error.message}`, 'project');
  }
  const tools = await cliTools(settings);
  const { backend, ...rest } = common;
  let runner: string;
  let agentOptions: CreateAgentHarnessOptions;
  if (backend !== undefined) {
    runner = `backend ${backend.backendId}`;
    agentOptions = { ...rest, backend };
  } else {
    if (settings.profiles === undefined) throw usageError('--project needs --profiles FILE: the provider profiles its agents\' models name (or --backend ID).', 'profiles');
    const set = await readProfilesFile(settings.profiles);
    const model = settings.profile === undefined ? undefined : createModelFromProfile(set, settings.profile, { env: options.env });
    runner = model === undefined ? 'profiles' : `default ${profileLabel(set, model)}`;
    agentOptions = { ...rest, profiles: set, profileOptions: { env: options.env }, ...(model === undefined ? {} : { model }) };
  }
  let harness: AgentHarness;
  try {
    harness = createAgentHarness(project, { ...agentOptions, agent: settings.agent, vfs, ...(tools === undefined ? {} : { tools }) });
  } catch (error) {
    if (!FeatureNotSupportedError.isInstance(error)) throw error;
    throw usageError(`${error.message} (features: ${error.features.join(', ')})`, 'backend');
  }
  const model = harness.agent.model === undefined ? '' : `, model ${harness.agent.model}`;
  return { harness, label: `project ${directory} agent ${harness.agent.name}${model} · ${runner}` };
}

function stateDirectory(options: BuildHarnessOptions): string {
  const configured = options.env[STATE_DIR_ENV];
  return configured !== undefined && configured !== '' ? configured : join(options.home, '.agent-assistant');
}
