import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { isRecord } from '../shared/is-record.js';
import { buildLocalPrompt } from './build-local-prompt.js';
import { createPiStreamReader } from './internal/read-pi-stream.js';
import { lazyPrivateDir, loadPresetFs, oncePerDir, runScratchDir, type LazyPrivateDir, type PresetFs } from './internal/preset-files.js';
import { checkChoice, checkFlagValue, checkPresetOptions, checkStringList, presetBase, resumesSession, sessionContinuation, type PresetSpec } from './local-cli-preset.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCliPresetOptions } from './local-cli-preset-options.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';
import { parsePiOutput } from './parse-pi-output.js';

/** The wire APIs pi speaks to a custom provider (`models.json` `api`). */
export type PiProviderApi = 'openai-completions' | 'openai-responses' | 'anthropic-messages' | 'google-generative-ai';

/** A custom model provider, written to `models.json` in pi's agent directory. */
export interface PiProviderOptions {
  /** The provider's name in `models.json` and in `--model <name>/<model>`. @default 'custom' */
  name?: string | undefined;
  /** Base URL of the API, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** @default 'openai-completions' */
  api?: PiProviderApi | undefined;
  /**
   * Name of the environment variable that holds the API key (pi reads it at run time), e.g.
   * `MY_PROVIDER_KEY`; pass the key itself in `env`. The key never reaches `models.json`.
   * @default undefined (no key)
   */
  apiKeyEnv?: string | undefined;
  /** Model ids the provider serves. @default [model] */
  models?: readonly string[] | undefined;
  /**
   * pi's `compat` switches for the provider. For `openai-completions` the default turns off the
   * `developer` role and reasoning effort, which OpenAI-compatible servers often reject.
   * @default { supportsDeveloperRole: false, supportsReasoningEffort: false } for openai-completions, else {}
   */
  compat?: Readonly<Record<string, boolean>> | undefined;
}

/** Options of {@link PiExecutionAdapter}. `model` is `provider/id` or, with `provider`, just the id. */
export interface PiAdapterOptions extends LocalCliPresetOptions {
  /**
   * pi's tools for the run (`--tools`, an allow-list). pi runs every tool it has without asking,
   * so the default is its read-only set; add `bash`, `edit` or `write` to let it run commands or
   * change files (e.g. `['read', 'bash']`). An empty list runs with `--no-tools`.
   * @default ['read', 'grep', 'find', 'ls']
   */
  tools?: readonly string[] | undefined;
  /** A custom provider, written to `models.json` in the agent directory. @default undefined (pi's own providers) */
  provider?: PiProviderOptions | undefined;
  /**
   * pi's agent directory (`PI_CODING_AGENT_DIR`: settings, `models.json`, sessions). Give one to keep
   * sessions across adapter instances.
   * @default a private directory per adapter instance, `<tmpdir>/agent-assistant-pi-XXXXXX/home/.pi/agent`
   */
  agentDir?: string | undefined;
}

/** The read-only tools pi runs by default here. */
export const PI_DEFAULT_TOOLS: readonly string[] = /* @__PURE__ */ Object.freeze(['read', 'grep', 'find', 'ls']);

const PROVIDER_APIS: readonly string[] = ['openai-completions', 'openai-responses', 'anthropic-messages', 'google-generative-ai'];
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Session files pi keeps per agent directory that the resume lookup reads, at most. */
const MAX_SESSION_ENTRIES = 10_000;

const SPEC: PresetSpec = {
  backendId: 'pi',
  defaultCommand: 'pi',
  label: 'pi',
  streaming: true,
  customProvider: true,
  inheritEnv: ['ANTHROPIC_*', 'OPENAI_*', 'GEMINI_*', 'GOOGLE_*', 'OPENROUTER_*', 'GROQ_*', 'MISTRAL_*', 'XAI_*', 'DEEPSEEK_*'],
  notes: [
    'Runs `pi -p --mode json` with the prompt (and the instructions) in a private file passed as `@file`; stdin is closed.',
    'pi runs its tools without asking: only the `tools` allow-list (default read, grep, find, ls) limits them; no approvals reach the host.',
    'Custom provider: `provider` is written to models.json in a private agent directory (PI_CODING_AGENT_DIR); the key stays in an environment variable.',
    'Continuation: the pi session id, resumed with --session <session file> (works from any working directory).',
    'Streaming: text deltas and tool activity live. No same-turn steering.',
  ],
};

/**
 * pi (`@mariozechner/pi-coding-agent`) as a backend (`pi`): `pi -p --mode json @<prompt file>`
 * in a private agent directory, with a read-only tool allow-list unless the caller opts in. The
 * session id from pi's header is the continuation; a later turn resumes it by its session
 * file, so it works from another working directory too. A model error (pi exits 0) is `failed`.
 *
 * @example
 * const backend = new PiExecutionAdapter({
 *   provider: { name: 'local', baseUrl: 'http://127.0.0.1:8080/v1', apiKeyEnv: 'LOCAL_KEY' },
 *   model: 'qwen3',
 *   env: { LOCAL_KEY: key },
 * });
 */
export class PiExecutionAdapter extends LocalCommandExecutionAdapter {
  readonly #privateDir: LazyPrivateDir;

  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: PiAdapterOptions = {}) {
    const privateDir = lazyPrivateDir('agent-assistant-pi-');
    super(piConfig(options, privateDir));
    this.#privateDir = privateDir;
  }

  /**
   * Deletes what this instance keeps on disk: its private `HOME` and agent directory (with
   * `models.json` and the sessions; not a given `agentDir`). Those sessions cannot be resumed
   * afterwards. Call it when no turn is running; a later turn starts afresh.
   */
  async dispose(): Promise<void> {
    await this.#privateDir.remove();
  }
}

/**
 * Creates a {@link PiExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createPiAdapter(options: PiAdapterOptions = {}): PiExecutionAdapter {
  return new PiExecutionAdapter(options);
}

interface CheckedProvider {
  name: string;
  json: string;
  firstModel: string | undefined;
  apiKeyEnv: string | undefined;
}

function piConfig(options: PiAdapterOptions, root: LazyPrivateDir): LocalCommandAdapterConfig {
  checkPresetOptions(options, SPEC);
  const tools = checkTools(options.tools) ?? PI_DEFAULT_TOOLS;
  const provider = checkProvider(options.provider, options.model);
  if (options.agentDir !== undefined && (typeof options.agentDir !== 'string' || options.agentDir === '' || options.agentDir.includes('\0'))) {
    throw new HarnessConfigError('pi option agentDir must be a non-empty path.', { field: 'agentDir' });
  }
  const model = modelArgument(options.model, provider);
  const prepareDirs = oncePerDir(root, async (dir) => {
    const fs = await loadPresetFs();
    const home = fs.join(dir, 'home');
    const agentDir = fs.resolve(options.agentDir ?? fs.join(home, '.pi', 'agent'));
    await fs.mkdir(home, { recursive: true, mode: 0o700 });
    await fs.mkdir(agentDir, { recursive: true, mode: 0o700 });
    if (provider !== undefined) await fs.writeFile(fs.join(agentDir, 'models.json'), provider.json, { flag: 'w', mode: 0o600 });
    return { home, agentDir };
  });
  const base = presetBase(options, SPEC);
  return {
    ...base,
    inheritEnv: provider?.apiKeyEnv === undefined || options.inheritEnv !== undefined ? base.inheritEnv : [...(base.inheritEnv ?? []), provider.apiKeyEnv],
    streamEvents: createPiStreamReader,
    continuationFor: (_request, incoming) => sessionContinuation(SPEC.backendId, incoming),
    async prepareRun(request, { incomingContinuation }) {
      const { home, agentDir } = await prepareDirs();
      const resuming = resumesSession(incomingContinuation);
      if (resuming && !SESSION_ID.test(incomingContinuation.continuationId)) throw new Error('the continuation does not hold a pi session id.');
      const scratch = await runScratchDir('agent-assistant-pi-prompt-');
      try {
        const promptFile = scratch.fs.join(scratch.dir, 'prompt.md');
        await scratch.fs.writeFile(promptFile, buildLocalPrompt(request, { includeInstructions: !resuming, resumingSession: resuming }), {
          flag: 'wx',
          mode: 0o600,
        });
        const session = resuming
          ? ((await sessionFile(scratch.fs, agentDir, incomingContinuation.continuationId)) ?? incomingContinuation.continuationId)
          : undefined;
        return {
          env: { HOME: home, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: '1' },
          values: { promptFile, ...(session === undefined ? {} : { session }) },
          finish: async () => {
            await scratch.remove();
            return undefined;
          },
        };
      } catch (error) {
        await scratch.remove();
        throw error;
      }
    },
    buildArgs(_request, { prepared }) {
      const promptFile = prepared?.['promptFile'];
      if (promptFile === undefined) throw new Error('the prompt file was not prepared.');
      const args = ['-p', '--mode', 'json'];
      if (prepared?.['session'] !== undefined) args.push('--session', prepared['session']);
      if (model !== undefined) args.push('--model', model);
      if (tools.length === 0) args.push('--no-tools');
      else args.push('--tools', tools.join(','));
      return [...args, ...(options.extraArgs ?? []), `@${promptFile}`];
    },
    parseOutput: (stdout, { continuation, stderr }) =>
      parsePiOutput(stdout, { backendId: SPEC.backendId, stderr, ...(continuation === undefined ? {} : { continuation }) }),
  };
}

function checkTools(value: unknown): readonly string[] | undefined {
  const tools = checkStringList(value, 'tools', SPEC.label);
  if (tools !== undefined && !tools.every((tool) => NAME.test(tool) && !tool.includes(','))) {
    throw new HarnessConfigError('pi option tools must hold tool names such as read, bash, edit.', { field: 'tools' });
  }
  return tools;
}

function checkProvider(value: PiProviderOptions | undefined, model: string | undefined): CheckedProvider | undefined {
  if (value === undefined) return undefined;
  const fail = (field: string, message: string): never => {
    throw new HarnessConfigError(`pi option provider.${field} ${message}`, { field: `provider.${field}` });
  };
  if (!isRecord(value)) return fail('', 'must be an object.');
  const name = value.name ?? 'custom';
  if (typeof name !== 'string' || !NAME.test(name)) fail('name', 'must be letters, digits, ".", "_" or "-".');
  if (typeof value.baseUrl !== 'string' || !/^https?:\/\/[^\s]+$/.test(value.baseUrl)) fail('baseUrl', 'must be an http(s) URL.');
  const api = checkChoice(value.api, PROVIDER_APIS, 'provider.api', SPEC.label) ?? 'openai-completions';
  if (value.apiKeyEnv !== undefined && (typeof value.apiKeyEnv !== 'string' || !ENV_NAME.test(value.apiKeyEnv))) {
    fail('apiKeyEnv', 'must be an environment variable name.');
  }
  const listed = checkStringList(value.models, 'provider.models', SPEC.label);
  const ownModel = model === undefined ? undefined : model.startsWith(`${name}/`) ? model.slice(name.length + 1) : model.includes('/') ? undefined : model;
  const models = listed ?? (ownModel === undefined ? [] : [ownModel]);
  if (models.length === 0) fail('models', 'must name at least one model (or set `model`).');
  const compat: Record<string, boolean> = Object.create(null) as Record<string, boolean>;
  if (api === 'openai-completions') Object.assign(compat, { supportsDeveloperRole: false, supportsReasoningEffort: false });
  if (value.compat !== undefined) {
    if (!isRecord(value.compat)) fail('compat', 'must be an object of booleans.');
    for (const [key, flag] of Object.entries(value.compat)) {
      if (!/^[A-Za-z][A-Za-z0-9]*$/.test(key) || typeof flag !== 'boolean') fail(`compat`, 'must map option names to booleans.');
      compat[key] = flag as boolean;
    }
  }
  const entry = {
    baseUrl: value.baseUrl,
    api,
    ...(value.apiKeyEnv === undefined ? {} : { apiKey: value.apiKeyEnv }),
    ...(Object.keys(compat).length === 0 ? {} : { compat: { ...compat } }),
    models: models.map((id) => ({ id })),
  };
  const providers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  providers[name] = entry;
  return { name, json: `${JSON.stringify({ providers }, null, 2)}\n`, firstModel: models[0], apiKeyEnv: value.apiKeyEnv };
}

/** `--model`: `provider/id` as given, or the provider's model named as `<provider>/<id>`. */
function modelArgument(model: string | undefined, provider: CheckedProvider | undefined): string | undefined {
  checkFlagValue(model, 'model', SPEC.label);
  if (provider === undefined) return model;
  if (model !== undefined && model.includes('/')) return model;
  return `${provider.name}/${model ?? provider.firstModel}`;
}

/**
 * The session file of `id` in pi's agent directory (`sessions/<cwd dir>/<time>_<id>.jsonl`), so a
 * resume works from any working directory; `undefined` when it is not there.
 */
async function sessionFile(fs: PresetFs, agentDir: string, id: string): Promise<string | undefined> {
  const sessions = fs.join(agentDir, 'sessions');
  const suffix = `_${id}.jsonl`;
  let seen = 0;
  let folders: string[];
  try {
    folders = await fs.readdir(sessions);
  } catch {
    return undefined;
  }
  for (const folder of folders) {
    let names: string[];
    try {
      names = await fs.readdir(fs.join(sessions, folder));
    } catch {
      continue;
    }
    seen += names.length;
    const match = names.find((name) => name.endsWith(suffix));
    if (match !== undefined) return fs.join(sessions, folder, match);
    if (seen > MAX_SESSION_ENTRIES) return undefined;
  }
  return undefined;
}
