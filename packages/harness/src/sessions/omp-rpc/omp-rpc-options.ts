import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { checkChoice, checkFlagValue, checkStringList } from '../../local/local-cli-preset.js';
import { DEFAULT_INHERITED_ENV } from '../../local/local-command-defaults.js';
import { isRecord } from '../../shared/is-record.js';
import { resolveAcpAdapterOptions, type AcpAdapterOptions, type ResolvedAcpAdapterOptions } from '../acp/acp-adapter-options.js';

/** When omp asks before running a tool: every tool but reads, only writes and commands, or never. */
export type OmpApprovalMode = 'always-ask' | 'write' | 'yolo';

/** The model omp's requests go to, written into its `models.yml` as provider `harness`. */
export interface OmpProviderOptions {
  /** Base URL of the API, e.g. `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  /** The model id at that API. */
  model: string;
  /** The API key; passed in the environment (`OMP_HARNESS_API_KEY`), never in a file or argument. */
  apiKey?: string | undefined;
  /** The wire protocol. @default 'openai-completions' */
  api?: 'openai-completions' | 'openai-responses' | 'anthropic-messages' | 'google-generative-ai' | undefined;
}

/** Options of {@link OmpRpcExecutionAdapter} (`createOmpRpcAdapter`). */
export interface OmpRpcAdapterOptions
  extends Omit<AcpAdapterOptions, 'command' | 'args' | 'backendId' | 'label' | 'approvalScope' | 'notes'> {
  /** The `omp` program (a Bun script: `bun` must be on the engine's `PATH`). @default 'omp' */
  command?: string | undefined;
  /** `--model`, as omp names it (`provider/id`); with `provider` the provider's model is used. */
  model?: string | undefined;
  /** A model API for omp (written to `models.yml` in the engine's home). @default omp's own configuration */
  provider?: OmpProviderOptions | undefined;
  /**
   * omp's `--approval-mode`. `always-ask` (every tool but reads asks the host) and `write`
   * (writes and commands ask) pause the turn `awaiting_approval`; `yolo`, omp's own default, runs
   * every tool unasked and must be chosen explicitly.
   * @default 'always-ask'
   */
  approvalMode?: OmpApprovalMode | undefined;
  /**
   * The engine's `HOME`, where omp keeps its sessions, settings and logs. A session can be
   * resumed (`--resume`) only from the same home. `provider`'s `models.yml` is written there only
   * when the home has none.
   * @default a private directory made for this adapter and removed by `dispose()`
   */
  home?: string | undefined;
  /** Extra arguments after the preset's own. Never secrets. @default [] */
  extraArgs?: readonly string[] | undefined;
}

/** The options with every default applied. */
export interface ResolvedOmpRpcOptions extends ResolvedAcpAdapterOptions {
  model: string | undefined;
  provider: Required<Omit<OmpProviderOptions, 'apiKey'>> & { apiKey: string | undefined } | undefined;
  approvalMode: OmpApprovalMode;
  home: string | undefined;
  extraArgs: readonly string[];
}

/** The backend id of omp's RPC sessions. */
export const OMP_RPC_BACKEND_ID = 'omp-rpc';
/** The environment variable the provider's key travels in. */
export const OMP_PROVIDER_KEY_VARIABLE = 'OMP_HARNESS_API_KEY';
const LABEL = 'oh-my-pi (RPC)';
const APIS = ['openai-completions', 'openai-responses', 'anthropic-messages', 'google-generative-ai'] as const;

/** Checks every option and applies defaults; throws `HarnessConfigError` naming the bad field. */
export function resolveOmpRpcOptions(options: OmpRpcAdapterOptions): ResolvedOmpRpcOptions {
  if (!isRecord(options as unknown)) throw new HarnessConfigError(`${LABEL} options must be an object.`, { field: 'options' });
  const { command, model, provider, approvalMode, home, extraArgs, ...rest } = options;
  const base = resolveAcpAdapterOptions({ ...rest, command: command ?? 'omp', backendId: OMP_RPC_BACKEND_ID, label: LABEL, inheritEnv: rest.inheritEnv ?? [...DEFAULT_INHERITED_ENV, 'BUN_*'] });
  return {
    ...base,
    model: checkFlagValue(model, 'model', LABEL),
    provider: provider === undefined ? undefined : checkProvider(provider),
    approvalMode: checkChoice(approvalMode, ['always-ask', 'write', 'yolo'], 'approvalMode', LABEL) ?? 'always-ask',
    home: checkFlagValue(home, 'home', LABEL),
    extraArgs: checkStringList(extraArgs, 'extraArgs', LABEL) ?? [],
  };
}

function checkProvider(provider: unknown): NonNullable<ResolvedOmpRpcOptions['provider']> {
  const fail = (field: string, message: string): never => {
    throw new HarnessConfigError(`${LABEL} option provider.${field} ${message}`, { field: `provider.${field}` });
  };
  if (!isRecord(provider)) return fail('', 'must be an object.');
  const text = (field: string): string | undefined => {
    const value = provider[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '' || /[\0\r\n]/.test(value)) return fail(field, 'must be a non-empty one-line string.');
    return value;
  };
  const baseUrl = text('baseUrl') ?? fail('baseUrl', 'is required.');
  if (!/^https?:\/\//i.test(baseUrl)) fail('baseUrl', 'must start with http:// or https://.');
  const api = text('api') ?? 'openai-completions';
  if (!(APIS as readonly string[]).includes(api)) fail('api', `must be one of ${APIS.join(', ')}.`);
  return { baseUrl, model: text('model') ?? fail('model', 'is required.'), apiKey: text('apiKey'), api: api as (typeof APIS)[number] };
}

/** omp's `models.yml` for the provider (JSON is YAML); the key is named by its variable, never written. */
export function modelsFile(provider: NonNullable<ResolvedOmpRpcOptions['provider']>): string {
  const model = { id: provider.model, name: provider.model, reasoning: false, input: ['text'], compat: { supportsDeveloperRole: false, supportsReasoningEffort: false } };
  return `${JSON.stringify({ providers: { harness: { baseUrl: provider.baseUrl, apiKey: OMP_PROVIDER_KEY_VARIABLE, api: provider.api, models: [model] } } }, null, 2)}\n`;
}

/** The arguments of `omp --mode rpc`; `resume` continues an earlier session of the same home. */
export function ompArgs(options: ResolvedOmpRpcOptions, resume: string | undefined): string[] {
  const model = options.provider === undefined ? options.model : `harness/${options.provider.model}`;
  return [
    '--mode',
    'rpc',
    ...(model === undefined ? [] : ['--model', model]),
    '--approval-mode',
    options.approvalMode,
    ...(resume === undefined ? [] : ['--resume', resume]),
    ...options.extraArgs,
  ];
}
