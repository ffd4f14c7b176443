import { buildLocalPrompt } from './build-local-prompt.js';
import { privateHomeEnv } from '../process/private-home.js';
import { PrivateHome } from './internal/private-home.js';
import { checkChoice, checkPresetOptions, checkStringList, PLAIN_SESSION_ID, presetBase, resumesSession, sessionContinuation, type PresetSpec } from './local-cli-preset.js';
import type { LocalCliPresetOptions } from './local-cli-preset-options.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';
import { checkEndpoint, checkHome, type OpenAiCompatibleEndpoint } from './openai-compatible-endpoint.js';
import { createGooseStreamReader, parseGooseOutput } from './parse-goose-output.js';

/**
 * goose's `GOOSE_MODE`: `approve` asks before every tool, `smart_approve` before risky ones,
 * `chat` offers no tools, `auto` runs every tool unasked. In a headless run a question stops it.
 */
export type GooseMode = 'approve' | 'smart_approve' | 'chat' | 'auto';

/** Options of {@link GooseExecutionAdapter}. `model` is passed as `--model`. */
export interface GooseAdapterOptions extends LocalCliPresetOptions {
  /** goose's HOME (its `~/.config/goose` and sessions). @default a fresh private directory per adapter instance, removed by `dispose()` */
  home?: string | undefined;
  /**
   * An OpenAI-compatible endpoint, passed by environment (`GOOSE_PROVIDER=openai`, `OPENAI_HOST`,
   * `OPENAI_BASE_PATH`, `OPENAI_API_KEY`, `GOOSE_MODEL`). @default goose's own configuration
   */
  provider?: OpenAiCompatibleEndpoint | undefined;
  /**
   * `GOOSE_MODE`. The default is goose's headless fail-safe: a tool that needs confirmation stops
   * the run (`failed`, `metadata.approvalRequired`) instead of running. `smart_approve` lets
   * read-only tools run; `auto` is the opt-in to run every tool unasked.
   * @default 'approve'
   */
  mode?: GooseMode | undefined;
  /** Built-in extensions to enable (`--with-builtin <name>`). @default ['developer'] (shell and file tools) */
  builtins?: readonly string[] | undefined;
}

const SPEC: PresetSpec = {
  backendId: 'goose',
  defaultCommand: 'goose',
  label: 'goose',
  streaming: true,
  customProvider: true,
  inheritEnv: ['GOOSE_*', 'OPENAI_*', 'ANTHROPIC_*', 'OPENROUTER_*', 'GOOGLE_*', 'DATABRICKS_*', 'OLLAMA_*'],
  notes: [
    'Runs `goose run --output-format stream-json -i -` with the prompt on stdin; text and tool activity stream per message.',
    'Uses goose built-in extensions, not the request tools. Starts in GOOSE_MODE=approve: a tool that needs confirmation stops the run (headless fail-safe) unless `mode` allows it.',
    'Continuation: a session name chosen up front (--name), resumed with --resume --name.',
  ],
};

/**
 * goose as a backend (`goose`): `goose run --output-format stream-json -i -` with the prompt on
 * stdin, a private HOME, `GOOSE_MODE=approve` (a tool confirmation stops the headless run instead
 * of being allowed), a session named up front (`--name`) and resumed with `--resume --name`.
 */
export class GooseExecutionAdapter extends LocalCommandExecutionAdapter {
  private readonly home: PrivateHome;

  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: GooseAdapterOptions = {}) {
    const { config, home } = gooseConfig(options);
    super(config);
    this.home = home;
  }

  /** Removes the private home (and goose's sessions in it) when this adapter made it. */
  async dispose(): Promise<void> {
    await this.home.dispose();
  }
}

/**
 * Creates a {@link GooseExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createGooseAdapter(options: GooseAdapterOptions = {}): GooseExecutionAdapter {
  return new GooseExecutionAdapter(options);
}

/** goose's OpenAI provider settings: host = the origin, base path = the rest plus `chat/completions`. */
function providerEnv(provider: OpenAiCompatibleEndpoint | undefined): Record<string, string> {
  if (provider === undefined) return {};
  const url = new URL(provider.baseUrl);
  const path = url.pathname.replace(/^\/+|\/+$/g, '');
  return {
    GOOSE_PROVIDER: 'openai',
    OPENAI_HOST: url.origin,
    OPENAI_BASE_PATH: `${path === '' ? '' : `${path}/`}chat/completions`,
    GOOSE_MODEL: provider.model,
    ...(provider.apiKey === undefined ? {} : { OPENAI_API_KEY: provider.apiKey }),
  };
}

function gooseConfig(options: GooseAdapterOptions): { config: LocalCommandAdapterConfig; home: PrivateHome } {
  checkPresetOptions(options, SPEC);
  const home = new PrivateHome('agent-assistant-goose-', async () => undefined, checkHome(options.home, SPEC.label));
  const provider = checkEndpoint(options.provider, 'provider', SPEC.label);
  const mode = checkChoice(options.mode, ['approve', 'smart_approve', 'chat', 'auto'], 'mode', SPEC.label) ?? 'approve';
  const builtins = checkStringList(options.builtins, 'builtins', SPEC.label) ?? ['developer'];
  const config: LocalCommandAdapterConfig = {
    ...presetBase(options, SPEC),
    env: { ...options.env, ...providerEnv(provider), GOOSE_MODE: mode },
    streamEvents: createGooseStreamReader,
    // goose stores a named session under that name: no path from outside reaches it.
    continuationFor: (_request, incoming) => sessionContinuation(SPEC.backendId, incoming, () => `agent-assistant-${crypto.randomUUID()}`, PLAIN_SESSION_ID),
    prepareRun: async () => {
      const env = privateHomeEnv(await home.path());
      return { env, values: env };
    },
    buildArgs(_request, { incomingContinuation, continuation }) {
      const args = ['run', '--output-format', 'stream-json', '-i', '-'];
      if (resumesSession(incomingContinuation)) args.push('--resume');
      if (continuation?.continuationId !== undefined) args.push('--name', continuation.continuationId);
      if (options.model !== undefined) args.push('--model', options.model);
      for (const builtin of builtins) args.push('--with-builtin', builtin);
      return [...args, ...(options.extraArgs ?? [])];
    },
    stdin: (request, { incomingContinuation }) => {
      const resuming = resumesSession(incomingContinuation);
      return buildLocalPrompt(request, { includeInstructions: !resuming, resumingSession: resuming });
    },
    parseOutput: (stdout, { continuation }) =>
      parseGooseOutput(stdout, { backendId: SPEC.backendId, ...(continuation === undefined ? {} : { continuation }) }),
  };
  return { config, home };
}
