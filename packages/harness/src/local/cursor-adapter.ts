import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { buildLocalPrompt } from './build-local-prompt.js';
import { privateHomeEnv } from '../process/private-home.js';
import { PrivateHome } from './internal/private-home.js';
import { checkPresetOptions, PLAIN_SESSION_ID, presetBase, resumesSession, sessionContinuation, type PresetSpec } from './local-cli-preset.js';
import type { LocalCliPresetOptions } from './local-cli-preset-options.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';
import { checkHome } from './openai-compatible-endpoint.js';
import { createCursorStreamReader, parseCursorOutput } from './parse-cursor-output.js';

/** Options of {@link CursorExecutionAdapter}. `model` is passed as `--model`. */
export interface CursorAdapterOptions extends LocalCliPresetOptions {
  /**
   * The CLI's HOME. A private one holds no Cursor login: authenticate with `CURSOR_API_KEY` in
   * `env`, or pass the home where `cursor-agent login` was run.
   * @default a fresh private directory per adapter instance, removed by `dispose()`
   */
  home?: string | undefined;
  /**
   * Pass `--force`: shell commands run unasked. Without it (`--trust` only) reads and edits run
   * and every shell call comes back `rejected`. @default false
   */
  force?: boolean | undefined;
}

const SPEC: PresetSpec = {
  backendId: 'cursor',
  defaultCommand: 'cursor-agent',
  label: 'Cursor CLI',
  streaming: true,
  customProvider: false,
  inheritEnv: ['CURSOR_*'],
  notes: [
    'Runs `cursor-agent -p --output-format stream-json --trust` with the prompt as the last argument (after `--`); `--stream-partial-output` when the caller streams.',
    'Uses Cursor built-in tools, not the request tools. Never passes --force unless `force` is set: shell calls come back rejected.',
    'Talks only to Cursor (needs a Cursor login or CURSOR_API_KEY); no custom model endpoint.',
    'Continuation: the session_id of its events, resumed with --resume.',
  ],
};

/**
 * The Cursor CLI as a backend (`cursor`): `cursor-agent -p --output-format stream-json --trust`
 * (never `--force` unless asked), a private HOME, the `session_id` of its events as the
 * continuation (`--resume <id>`), and `--stream-partial-output` for live text deltas.
 */
export class CursorExecutionAdapter extends LocalCommandExecutionAdapter {
  private readonly home: PrivateHome;

  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: CursorAdapterOptions = {}) {
    const { config, home } = cursorConfig(options);
    super(config);
    this.home = home;
  }

  /** Removes the private home when this adapter made it. */
  async dispose(): Promise<void> {
    await this.home.dispose();
  }
}

/**
 * Creates a {@link CursorExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createCursorAdapter(options: CursorAdapterOptions = {}): CursorExecutionAdapter {
  return new CursorExecutionAdapter(options);
}

function cursorConfig(options: CursorAdapterOptions): { config: LocalCommandAdapterConfig; home: PrivateHome } {
  checkPresetOptions(options, SPEC);
  const home = new PrivateHome('agent-assistant-cursor-', async () => undefined, checkHome(options.home, SPEC.label));
  if (options.force !== undefined && typeof options.force !== 'boolean') {
    throw new HarnessConfigError(`${SPEC.label} option force must be a boolean.`, { field: 'force' });
  }
  const config: LocalCommandAdapterConfig = {
    ...presetBase(options, SPEC),
    streamEvents: createCursorStreamReader,
    continuationFor: (_request, incoming) => sessionContinuation(SPEC.backendId, incoming, undefined, PLAIN_SESSION_ID),
    prepareRun: async () => {
      const env = privateHomeEnv(await home.path());
      return { env, values: env };
    },
    buildArgs(request, { incomingContinuation, streaming }) {
      const args = ['-p', '--output-format', 'stream-json', '--trust'];
      if (streaming === true) args.push('--stream-partial-output');
      const resuming = resumesSession(incomingContinuation);
      if (resuming) args.push('--resume', incomingContinuation.continuationId);
      if (options.model !== undefined) args.push('--model', options.model);
      if (options.force === true) args.push('--force');
      const prompt = buildLocalPrompt(request, { includeInstructions: !resuming, resumingSession: resuming });
      return [...args, ...(options.extraArgs ?? []), '--', prompt];
    },
    parseOutput: (stdout, { continuation }) =>
      parseCursorOutput(stdout, { backendId: SPEC.backendId, ...(continuation === undefined ? {} : { continuation }) }),
  };
  return { config, home };
}
