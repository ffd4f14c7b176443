import type { ExecutionContinuation, ExecutionOptions, ExecutionRequest, ExecutionResult } from '../execution/types.js';
import { buildEnvironment } from '../process/build-environment.js';
import { findExecutable } from '../process/find-executable.js';
import { loadNodeModules } from '../process/load-node-modules.js';
import { runProcess } from '../process/run-process.js';
import { isRecord } from '../shared/is-record.js';
import { buildLocalPrompt } from './build-local-prompt.js';
import { isRetryableMessage } from './internal/classify-api-error.js';
import { LOCAL_BACKENDS } from './internal/local-backend-catalog.js';
import { inspectNpmShim, missingShimBinary } from './internal/npm-shim.js';
import { privateHomeEnv } from '../process/private-home.js';
import { PrivateHome } from './internal/private-home.js';
import { checkPresetOptions, checkStringList, presetBase, resumesSession, sessionContinuation, type PresetSpec } from './local-cli-preset.js';
import type { LocalCliPresetOptions } from './local-cli-preset-options.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import { DEFAULT_INHERITED_ENV } from './local-command-defaults.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';
import { checkEndpoint, checkHome, type OpenAiCompatibleEndpoint } from './openai-compatible-endpoint.js';

/** Options of {@link CrushExecutionAdapter}. `model` is passed as `--model` (`model` or `provider/model`). */
export interface CrushAdapterOptions extends LocalCliPresetOptions {
  /**
   * crush's HOME: its configuration (`.config/crush/crush.json`, written by the preset) and one
   * data directory per conversation (`crush-sessions/<id>`).
   * @default a fresh private directory per adapter instance, removed by `dispose()`
   */
  home?: string | undefined;
  /** An OpenAI-compatible endpoint, written to crush's configuration as provider `custom` (the key goes by environment). @default crush's own providers */
  provider?: OpenAiCompatibleEndpoint | undefined;
  /**
   * Tools crush must not offer the model (`options.disabled_tools`). `crush run` approves every
   * tool call itself, so the shell is off unless you opt in: pass `[]` to let crush run commands.
   * @default ['bash']
   */
  disabledTools?: readonly string[] | undefined;
}

const SPEC: PresetSpec = {
  backendId: 'crush',
  defaultCommand: 'crush',
  label: 'crush',
  customProvider: true,
  inheritEnv: ['CRUSH_*', 'OPENAI_*', 'ANTHROPIC_*', 'OPENROUTER_*', 'GEMINI_*', 'GROQ_*'],
  notes: [
    'Runs `crush run --quiet` with the prompt on stdin; stdout is the answer as plain text (no usage, no live events).',
    'Uses crush built-in tools, not the request tools. `crush run` approves every tool itself: bash is disabled in its configuration unless disabledTools says otherwise.',
    'Continuation: one crush data directory per conversation; its session id (from `crush session list --json`) is resumed with --session.',
  ],
};

/** The environment variable that carries `provider.apiKey` to crush (its configuration names it). */
const KEY_VARIABLE = 'AGENT_ASSISTANT_CRUSH_API_KEY';
const CRUSH_LAUNCHER = LOCAL_BACKENDS.crush.npmShim ?? { script: 'run-crush.js', binary: 'bin/crush' };
const CONVERSATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CRUSH_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * crush as a backend (`crush`): `crush run --quiet` with the prompt on stdin and a private
 * configuration that disables bash (crush's `run` approves every tool itself). Each conversation
 * gets its own data directory; after a fresh run its session id is read with
 * `crush session list --json` and resumed with `--session <id>`.
 */
export class CrushExecutionAdapter extends LocalCommandExecutionAdapter {
  private readonly home: PrivateHome;
  private readonly crush: { command: string; inheritEnv: readonly string[]; env: Readonly<Record<string, string>> };

  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: CrushAdapterOptions = {}) {
    const parts = crushConfig(options);
    super(parts.config);
    this.home = parts.home;
    this.crush = { command: parts.config.command, inheritEnv: parts.config.inheritEnv ?? DEFAULT_INHERITED_ENV, env: parts.config.env ?? {} };
  }

  /** Runs one turn; after a fresh completed run, adds crush's session id to the continuation. Never rejects. */
  override async execute(request: ExecutionRequest, options: ExecutionOptions = {}): Promise<ExecutionResult> {
    const result = await super.execute(request, options);
    const continuation = result.continuation;
    if (result.status !== 'completed' || continuation?.continuationId === undefined || crushSessionOf(continuation) !== undefined) return result;
    const sessionId = await this.sessionIdOf(continuation.continuationId).catch(() => undefined);
    if (sessionId === undefined) return result;
    const withId: ExecutionContinuation = { ...continuation, state: { ...continuation.state, crushSessionId: sessionId } };
    return { ...result, continuation: withId, metadata: { ...result.metadata, continuation: withId, sessionId } };
  }

  /** Removes the private home (and every conversation in it) when this adapter made it. */
  async dispose(): Promise<void> {
    await this.home.dispose();
  }

  private async sessionIdOf(conversation: string): Promise<string | undefined> {
    const home = await this.home.path();
    const node = await loadNodeModules();
    const env = buildEnvironment(node.process.env, this.crush.inheritEnv, { ...this.crush.env, ...privateHomeEnv(home) }, node.process.platform);
    const outcome = await runProcess(node, {
      command: this.crush.command,
      args: ['session', 'list', '--json', '--data-dir', dataDir(home, conversation)],
      env,
      timeoutMs: 10_000,
      killGraceMs: 500,
      maxOutputBytes: 1024 * 1024,
    });
    if (outcome.ending.kind !== 'exited' || outcome.ending.exitCode !== 0) return undefined;
    return newestSessionId(JSON.parse(outcome.stdout) as unknown);
  }
}

/**
 * Creates a {@link CrushExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createCrushAdapter(options: CrushAdapterOptions = {}): CrushExecutionAdapter {
  return new CrushExecutionAdapter(options);
}

/** The id of the newest session in `crush session list --json` output. */
export function newestSessionId(list: unknown): string | undefined {
  if (!Array.isArray(list)) return undefined;
  let newest: { id: string; at: number } | undefined;
  for (const entry of list) {
    if (!isRecord(entry) || typeof entry['id'] !== 'string' || !CRUSH_SESSION_ID.test(entry['id'])) continue;
    const created = entry['created'];
    const at = typeof created === 'number' ? created : typeof created === 'string' ? Date.parse(created) : Number.NaN;
    const rank = Number.isFinite(at) ? at : -1;
    if (newest === undefined || rank > newest.at) newest = { id: entry['id'], at: rank };
  }
  return newest?.id;
}

const dataDir = (home: string, conversation: string) => `${home}/crush-sessions/${conversation}`;

/**
 * Fails the run before it starts when `command` is npm's `run-crush.js` and the binary it runs is
 * missing: that launcher would retry its download and leave an `archive-XXXXXX` directory in the
 * workspace.
 */
async function refuseLauncherWithoutBinary(command: string, options: CrushAdapterOptions): Promise<void> {
  const node = await loadNodeModules();
  const path = options.env?.['PATH'] ?? node.process.env['PATH'];
  const lookup = await findExecutable(node, command, { ...node.process.env, PATH: path }, options.cwd ?? node.process.cwd());
  if (!lookup.found) return;
  const shim = await inspectNpmShim(lookup.path, CRUSH_LAUNCHER, node.process.platform);
  if (shim !== undefined && !shim.present) throw new Error(`${missingShimBinary(command, shim)} Pass the crush binary's path as \`command\`.`);
}

function crushSessionOf(continuation: ExecutionContinuation): string | undefined {
  const value = continuation.state?.['crushSessionId'];
  return typeof value === 'string' && CRUSH_SESSION_ID.test(value) ? value : undefined;
}

/** crush's configuration: the custom provider (key by environment), bash disabled, no metrics or update checks. */
function crushSettings(provider: OpenAiCompatibleEndpoint | undefined, disabledTools: readonly string[]): string {
  const settings: Record<string, unknown> = {
    options: { disabled_tools: [...disabledTools], disable_metrics: true, disable_provider_auto_update: true },
  };
  if (provider !== undefined) {
    settings['providers'] = {
      custom: {
        name: 'Custom',
        type: 'openai-compat',
        base_url: provider.baseUrl,
        api_key: `$${KEY_VARIABLE}`,
        models: [{ id: provider.model, name: provider.model, context_window: 128_000, default_max_tokens: 4_096 }],
      },
    };
    settings['models'] = { large: { provider: 'custom', model: provider.model }, small: { provider: 'custom', model: provider.model } };
  }
  return `${JSON.stringify(settings, null, 2)}\n`;
}

function crushConfig(options: CrushAdapterOptions): { config: LocalCommandAdapterConfig; home: PrivateHome } {
  checkPresetOptions(options, SPEC);
  const provider = checkEndpoint(options.provider, 'provider', SPEC.label);
  const disabledTools = checkStringList(options.disabledTools, 'disabledTools', SPEC.label) ?? ['bash'];
  const settings = crushSettings(provider, disabledTools);
  const home = new PrivateHome('agent-assistant-crush-', async (dir, fs) => {
    await fs.mkdir(fs.join(dir, '.config', 'crush'), { recursive: true, mode: 0o700 });
    await fs.writeFile(fs.join(dir, '.config', 'crush', 'crush.json'), settings, { mode: 0o600 });
  }, checkHome(options.home, SPEC.label));
  const keyEnv: Record<string, string> = provider?.apiKey === undefined ? {} : { [KEY_VARIABLE]: provider.apiKey };
  const base = presetBase(options, SPEC);
  const config: LocalCommandAdapterConfig = {
    ...base,
    env: { ...options.env, ...keyEnv },
    // The conversation names a directory: only the UUIDs this preset makes are accepted.
    continuationFor: (_request, incoming) => sessionContinuation(SPEC.backendId, incoming, () => crypto.randomUUID(), CONVERSATION_ID),
    prepareRun: async () => {
      await refuseLauncherWithoutBinary(base.command, options);
      const env = privateHomeEnv(await home.path());
      return { env, values: env };
    },
    buildArgs(_request, { incomingContinuation, continuation, prepared }) {
      const dir = dataDir(prepared?.['HOME'] ?? '.', continuation?.continuationId ?? '');
      const args = ['run', '--quiet', '--data-dir', dir];
      if (options.model !== undefined) args.push('--model', options.model);
      if (resumesSession(incomingContinuation)) {
        const sessionId = crushSessionOf(incomingContinuation);
        args.push(...(sessionId === undefined ? ['--continue'] : ['--session', sessionId]));
      }
      return [...args, ...(options.extraArgs ?? [])];
    },
    stdin: (request, { incomingContinuation }) => {
      const resuming = resumesSession(incomingContinuation);
      return buildLocalPrompt(request, { includeInstructions: !resuming, resumingSession: resuming });
    },
    // Exit 0 means the run completed: its stdout is the answer.
    parseOutput: (stdout) => ({ text: stdout.trim() }),
    isRetryableExit: ({ exitSignal, stderr }) => exitSignal !== null || isRetryableMessage(stderr.trim().split('\n').at(-1) ?? ''),
  };
  return { config, home };
}
