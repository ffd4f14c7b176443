import { createCodexStreamReader } from './internal/read-codex-stream.js';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { buildLocalPrompt } from './build-local-prompt.js';
import { checkChoice, checkPresetOptions, presetBase, resumesSession, sessionContinuation, type PresetSpec } from './local-cli-preset.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCliPresetOptions } from './local-cli-preset-options.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';
import { parseCodexOutput } from './parse-codex-output.js';

/** Codex's `--sandbox` policies. */
export type CodexSandboxMode = 'read-only' | 'workspace-write' | 'danger-full-access';

/** Options of {@link CodexExecutionAdapter}. */
export interface CodexAdapterOptions extends LocalCliPresetOptions {
  /** `--sandbox` policy for commands the agent runs. @default undefined (Codex's default, read-only) */
  sandbox?: CodexSandboxMode | undefined;
  /**
   * Configuration overrides, each passed as `-c key=value` with the value encoded as TOML, e.g.
   * `{ model_provider: 'fake', 'features.plugins': false }`. Never put secrets here; reference an
   * environment variable instead (a provider's `env_key`).
   * @default {}
   */
  config?: Readonly<Record<string, string | number | boolean>> | undefined;
  /** Pass `--skip-git-repo-check`, so Codex runs outside a Git repository. @default true */
  skipGitRepoCheck?: boolean | undefined;
}

const SPEC: PresetSpec = {
  backendId: 'codex',
  defaultCommand: 'codex',
  label: 'Codex CLI',
  streaming: true,
  customProvider: true,
  inheritEnv: ['OPENAI_*', 'CODEX_*', 'AZURE_OPENAI_*'],
  notes: [
    'Runs `codex exec --json`; the prompt (with the instructions) goes on stdin.',
    'Uses Codex built-in tools under its sandbox, not the request tools.',
    'Continuation: the Codex thread id, resumed with `codex exec resume <id>`.',
  ],
};

/**
 * OpenAI Codex as a backend (`codex`): `codex exec --json --skip-git-repo-check -` with the
 * prompt on stdin; the thread id from `thread.started` is the opaque continuation, resumed with
 * `codex exec … resume <id> -`. `turn.failed` is a failure; usage is reported per run.
 */
export class CodexExecutionAdapter extends LocalCommandExecutionAdapter {
  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: CodexAdapterOptions = {}) {
    super(codexConfig(options));
  }
}

/**
 * Creates a {@link CodexExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createCodexAdapter(options: CodexAdapterOptions = {}): CodexExecutionAdapter {
  return new CodexExecutionAdapter(options);
}

function codexConfig(options: CodexAdapterOptions): LocalCommandAdapterConfig {
  checkPresetOptions(options, SPEC);
  const sandbox = checkChoice(options.sandbox, ['read-only', 'workspace-write', 'danger-full-access'], 'sandbox', SPEC.label);
  const overrides = configOverrides(options.config);
  return {
    ...presetBase(options, SPEC),
    streamEvents: createCodexStreamReader,
    continuationFor: (_request, incoming) => sessionContinuation(SPEC.backendId, incoming),
    buildArgs(_request, { incomingContinuation }) {
      const args = ['exec', '--json'];
      if (options.skipGitRepoCheck !== false) args.push('--skip-git-repo-check');
      if (options.model !== undefined) args.push(`--model=${options.model}`);
      if (sandbox !== undefined) args.push(`--sandbox=${sandbox}`);
      args.push(...overrides, ...(options.extraArgs ?? []));
      if (resumesSession(incomingContinuation)) args.push('resume', incomingContinuation.continuationId);
      args.push('-');
      return args;
    },
    stdin: (request, { incomingContinuation }) => {
      const resuming = resumesSession(incomingContinuation);
      return buildLocalPrompt(request, { includeInstructions: !resuming, resumingSession: resuming });
    },
    parseOutput: (stdout, { continuation }) =>
      parseCodexOutput(stdout, { backendId: SPEC.backendId, ...(continuation === undefined ? {} : { continuation }) }),
  };
}

/** The `-c key=value` arguments for Codex configuration overrides; throws `HarnessConfigError` for a bad key or value. */
export function configOverrides(config: CodexAdapterOptions['config']): string[] {
  if (config === undefined) return [];
  if (typeof config !== 'object' || config === null) {
    throw new HarnessConfigError(`${SPEC.label} option config must be an object.`, { field: 'config' });
  }
  return Object.entries(config).flatMap(([key, value]) => {
    if (!/^[A-Za-z0-9_.-]+$/.test(key) || key.startsWith('-')) {
      throw new HarnessConfigError(`${SPEC.label} option config.${key} is not a valid configuration key.`, { field: `config.${key}` });
    }
    if (typeof value === 'string') return ['-c', `${key}=${JSON.stringify(value)}`];
    if (typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return ['-c', `${key}=${String(value)}`];
    throw new HarnessConfigError(`${SPEC.label} option config.${key} must be a string, a finite number or a boolean.`, { field: `config.${key}` });
  });
}
