import { join } from 'node:path';
import { createNodeFsVfs } from '@agent-assistant/vfs/node';
import { createHarness } from '../../core/create-harness.js';
import { createFileResumeGuard } from '../../core/continuation/file-resume-guard.js';
import type { HarnessLimits } from '../../core/types/config.js';
import type { HarnessRuntime } from '../../core/types/runtime.js';
import type { HarnessTraceSink } from '../../core/types/trace.js';
import { createLocalBackendAdapter } from '../../local/create-local-backend-adapter.js';
import { createModelFromProfile } from '../../providers/profiles/create-model-from-profile.js';
import { composeToolRegistries } from '../../tools/compose-tool-registries.js';
import { createQuestionToolRegistry } from '../../tools/question/create-question-tool-registry.js';
import { createWorkspaceToolRegistry } from '../../tools/workspace/create-workspace-tool-registry.js';
import { usageError } from './cli-usage-error.js';
import { readProfilesFile } from './read-profiles-file.js';
import { requireApprovalFor } from './require-approval.js';
import type { RunSettings } from './run-settings.js';

/** The environment variable naming the CLI's state directory (resume claims). */
export const STATE_DIR_ENV = 'AGENT_ASSISTANT_STATE_DIR';

/** A harness built from run settings, and a one-line description of what runs. */
export interface BuiltHarness {
  harness: HarnessRuntime;
  /** e.g. `profile local (openai-chat gpt-4.1-mini)` or `backend claude-code`. */
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
}

/**
 * Builds the harness a run or resume uses: a profile's model with the workspace tools and (with
 * `questionTool`) the `question` tool, or a local CLI backend working in the workspace.
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
  if (settings.backend !== undefined) {
    const backend = createLocalBackendAdapter(settings.backend, {
      ...(settings.backendCommand === undefined ? {} : { command: settings.backendCommand }),
      ...(settings.model === undefined ? {} : { model: settings.model }),
      ...(settings.workspace === undefined ? {} : { cwd: settings.workspace }),
      ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    });
    return {
      harness: createHarness({ backend, ...common }),
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
  const profile = set.profiles.find((entry) => entry.id === model.profileId);
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
  const tools =
    workspaceTools !== undefined && questionTools !== undefined ? composeToolRegistries(questionTools, workspaceTools) : (workspaceTools ?? questionTools);
  const label = `profile ${model.profileId}${profile === undefined ? '' : ` (${profile.protocol} ${profile.model})`}`;
  return {
    harness: createHarness({
      model,
      ...(tools === undefined ? {} : { tools }),
      ...common,
    }),
    label,
  };
}

function stateDirectory(options: BuildHarnessOptions): string {
  const configured = options.env[STATE_DIR_ENV];
  return configured !== undefined && configured !== '' ? configured : join(options.home, '.agent-assistant');
}
