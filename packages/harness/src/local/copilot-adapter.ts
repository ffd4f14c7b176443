import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { isRecord } from '../shared/is-record.js';
import { buildLocalPrompt } from './build-local-prompt.js';
import { resolveCopilotNativeBinary } from '../process/copilot-native-binary.js';
import { loadNodeModules } from '../process/load-node-modules.js';
import { lazyPrivateDir, loadPresetFs, oncePerDir, readBoundedFile, runScratchDir, type LazyPrivateDir } from './internal/preset-files.js';
import { createCopilotStreamReader } from './internal/read-copilot-stream.js';
import { checkChoice, checkPresetOptions, checkStringList, presetBase, resumesSession, sessionContinuation, type PresetSpec } from './local-cli-preset.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCliPresetOptions } from './local-cli-preset-options.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';
import { parseCopilotOutput } from './parse-copilot-output.js';

/** Your own model provider for Copilot CLI (BYOK), which also turns on its offline mode. */
export interface CopilotProviderOptions {
  /** API endpoint, e.g. `http://127.0.0.1:11434/v1` (`COPILOT_PROVIDER_BASE_URL`). Pass the key in `env` as `COPILOT_PROVIDER_API_KEY`. */
  baseUrl: string;
  /** `COPILOT_PROVIDER_TYPE`. @default undefined (Copilot's default, `openai`) */
  type?: 'openai' | 'azure' | 'anthropic' | undefined;
  /** `COPILOT_PROVIDER_WIRE_API`. @default undefined (Copilot's default, `completions`) */
  wireApi?: 'completions' | 'responses' | undefined;
}

/** Options of {@link CopilotExecutionAdapter}. */
export interface CopilotAdapterOptions extends LocalCliPresetOptions {
  /**
   * Your own provider: Copilot runs with `COPILOT_PROVIDER_BASE_URL` and `COPILOT_OFFLINE=true`
   * (no GitHub sign-in, telemetry or web tools). Needs `model`.
   * @default undefined (GitHub's models; sign in through `COPILOT_GITHUB_TOKEN` / `GH_TOKEN` in `env`)
   */
  provider?: CopilotProviderOptions | undefined;
  /**
   * Tools Copilot may run without asking, each passed as `--allow-tool`, e.g. `['shell(touch)', 'write']`.
   * Nobody can answer Copilot's questions in `-p` mode, so every other tool that needs permission
   * (commands that change things, file writes) is denied. No allow-all switch is ever passed.
   * @default [] (only what Copilot runs unasked, such as read-only commands)
   */
  allowTools?: readonly string[] | undefined;
  /**
   * Copilot's state directory (`COPILOT_HOME`: sessions, settings). Give one to keep sessions
   * across adapter instances.
   * @default a private directory per adapter instance, `<tmpdir>/agent-assistant-copilot-XXXXXX/home/.copilot`
   */
  configDir?: string | undefined;
  /**
   * `XDG_CACHE_HOME` of the CLI, where it unpacks its 235 MB package on first start. Shared by every
   * run so that happens once.
   * @default this process's `XDG_CACHE_HOME`, else `~/.cache`
   */
  cacheDir?: string | undefined;
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** Cap on the usage report read back from `--usage-output-file`. */
const MAX_USAGE_REPORT_BYTES = 1_048_576;

const SPEC: PresetSpec = {
  backendId: 'copilot',
  defaultCommand: 'copilot',
  label: 'GitHub Copilot CLI',
  streaming: true,
  customProvider: true,
  inheritEnv: ['COPILOT_PROVIDER_BASE_URL', 'COPILOT_PROVIDER_TYPE', 'COPILOT_PROVIDER_WIRE_API', 'COPILOT_PROVIDER_API_KEY', 'COPILOT_MODEL', 'COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN', 'GH_HOST', 'COPILOT_GH_HOST'],
  notes: [
    'Runs the native `copilot -p "" --output-format json` (resolved behind the npm loader) with the prompt (and the instructions) on stdin.',
    'Safe posture: no allow-all switch; tools that need permission are denied (reported as rejected tool activity) unless listed in `allowTools`. No approvals reach the host in this mode.',
    'Custom provider: `provider` (BYOK, COPILOT_PROVIDER_BASE_URL, offline mode); the key goes in `env` as COPILOT_PROVIDER_API_KEY.',
    'Continuation: the Copilot session id, chosen with --session-id and resumed with --resume.',
    'Streaming: text deltas and tool activity live; token usage from --usage-output-file. No same-turn steering.',
  ],
};

/**
 * GitHub Copilot CLI (`@github/copilot`) as a backend (`copilot`): its native binary in `-p` mode
 * with JSON lines, a private `HOME` / `COPILOT_HOME` per instance and a shared package cache. No
 * tool that needs permission runs unless listed in `allowTools`. The session id is chosen up front
 * (`--session-id`) and resumed with `--resume`; `session.error` is `failed`.
 *
 * @example
 * const backend = new CopilotExecutionAdapter({
 *   provider: { baseUrl: 'http://127.0.0.1:11434/v1' },
 *   model: 'qwen3',
 *   env: { COPILOT_PROVIDER_API_KEY: key },
 * });
 */
export class CopilotExecutionAdapter extends LocalCommandExecutionAdapter {
  readonly #privateDir: LazyPrivateDir;

  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: CopilotAdapterOptions = {}) {
    const privateDir = lazyPrivateDir('agent-assistant-copilot-');
    super(copilotConfig(options, privateDir));
    this.#privateDir = privateDir;
  }

  /**
   * Deletes what this instance keeps on disk: its private `HOME` and `COPILOT_HOME` (with the
   * sessions; not a given `configDir`, never the shared cache). Those sessions cannot be resumed
   * afterwards. Call it when no turn is running; a later turn starts afresh.
   */
  async dispose(): Promise<void> {
    await this.#privateDir.remove();
  }
}

/**
 * Creates a {@link CopilotExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createCopilotAdapter(options: CopilotAdapterOptions = {}): CopilotExecutionAdapter {
  return new CopilotExecutionAdapter(options);
}

function copilotConfig(options: CopilotAdapterOptions, root: LazyPrivateDir): LocalCommandAdapterConfig {
  checkPresetOptions(options, SPEC);
  const providerEnv = checkProvider(options.provider, options.model);
  const allowTools = checkStringList(options.allowTools, 'allowTools', SPEC.label) ?? [];
  if (allowTools.some((entry) => /[\0\r\n]/.test(entry))) {
    throw new HarnessConfigError(`${SPEC.label} option allowTools must hold single-line tool patterns.`, { field: 'allowTools' });
  }
  for (const field of ['configDir', 'cacheDir'] as const) {
    const value = options[field];
    if (value !== undefined && (typeof value !== 'string' || value === '' || value.includes('\0'))) {
      throw new HarnessConfigError(`${SPEC.label} option ${field} must be a non-empty path.`, { field });
    }
  }
  let native: Promise<string> | undefined;
  const nativeCommand = () => {
    native ??= loadNodeModules().then(async (node) => {
      const found = await resolveCopilotNativeBinary(node, options.command ?? SPEC.defaultCommand, { ...node.process.env, ...options.env }, options.cwd ?? node.process.cwd());
      if (found.shimWithoutNative !== undefined) {
        throw new Error(
          `${found.path} is the npm loader of GitHub Copilot CLI, and its native binary (${found.shimWithoutNative}) is not installed beside it. Reinstall @github/copilot, or set \`command\` to the native \`copilot\` binary.`,
        );
      }
      return found.path;
    });
    native.catch(() => {
      native = undefined;
    });
    return native;
  };
  const prepareDirs = oncePerDir(root, async (dir) => {
    const fs = await loadPresetFs();
    const home = fs.join(dir, 'home');
    const copilotHome = fs.resolve(options.configDir ?? fs.join(home, '.copilot'));
    await fs.mkdir(home, { recursive: true, mode: 0o700 });
    await fs.mkdir(copilotHome, { recursive: true, mode: 0o700 });
    const cache = fs.resolve(options.cacheDir ?? fs.env['XDG_CACHE_HOME'] ?? fs.join(fs.homedir(), '.cache'));
    return { HOME: home, COPILOT_HOME: copilotHome, XDG_CACHE_HOME: cache };
  });
  return {
    ...presetBase(options, SPEC),
    streamEvents: createCopilotStreamReader,
    continuationFor: (_request, incoming) => sessionContinuation(SPEC.backendId, incoming, () => crypto.randomUUID()),
    async prepareRun(_request, { continuation }) {
      if (continuation?.continuationId !== undefined && !SESSION_ID.test(continuation.continuationId)) {
        throw new Error('the continuation does not hold a Copilot session id.');
      }
      const [command, dirs] = await Promise.all([nativeCommand(), prepareDirs()]);
      const scratch = await runScratchDir('agent-assistant-copilot-run-');
      const usageFile = scratch.fs.join(scratch.dir, 'usage.json');
      return {
        command,
        env: { ...dirs, COPILOT_AUTO_UPDATE: 'false', ...providerEnv },
        values: { usageFile },
        finish: async () => {
          try {
            const report = await readBoundedFile(scratch.fs, usageFile, MAX_USAGE_REPORT_BYTES);
            return report === undefined ? undefined : { usageReport: report };
          } finally {
            await scratch.remove();
          }
        },
      };
    },
    buildArgs(_request, { incomingContinuation, continuation, prepared }) {
      // `-p ""`: the prompt comes on stdin, so it never shows in the process list.
      const args = ['-p', '', '--output-format', 'json'];
      if (resumesSession(incomingContinuation)) args.push(`--resume=${incomingContinuation.continuationId}`);
      else if (continuation?.continuationId !== undefined) args.push(`--session-id=${continuation.continuationId}`);
      if (options.model !== undefined) args.push(`--model=${options.model}`);
      for (const entry of allowTools) args.push(`--allow-tool=${entry}`);
      if (prepared?.['usageFile'] !== undefined) args.push(`--usage-output-file=${prepared['usageFile']}`);
      return [...args, ...(options.extraArgs ?? [])];
    },
    stdin: (request, { incomingContinuation }) => {
      const resuming = resumesSession(incomingContinuation);
      return buildLocalPrompt(request, { includeInstructions: !resuming, resumingSession: resuming });
    },
    parseOutput: (stdout, { continuation, finished, stderr }) =>
      parseCopilotOutput(stdout, {
        backendId: SPEC.backendId,
        stderr,
        ...(continuation === undefined ? {} : { continuation }),
        ...(finished?.['usageReport'] === undefined ? {} : { usageReport: finished['usageReport'] }),
      }),
  };
}

/** The BYOK variables for `provider`; throws `HarnessConfigError` for a bad one or a missing model. */
function checkProvider(value: CopilotProviderOptions | undefined, model: string | undefined): Record<string, string> {
  if (value === undefined) return {};
  const fail = (field: string, message: string): never => {
    throw new HarnessConfigError(`${SPEC.label} option provider${field} ${message}`, { field: `provider${field}` });
  };
  if (!isRecord(value)) return fail('', 'must be an object.');
  if (typeof value.baseUrl !== 'string' || !/^https?:\/\/[^\s]+$/.test(value.baseUrl)) fail('.baseUrl', 'must be an http(s) URL.');
  const type = checkChoice(value.type, ['openai', 'azure', 'anthropic'], 'provider.type', SPEC.label);
  const wireApi = checkChoice(value.wireApi, ['completions', 'responses'], 'provider.wireApi', SPEC.label);
  if (model === undefined) fail('', 'needs `model`: Copilot refuses a custom provider without an explicit model.');
  return {
    COPILOT_PROVIDER_BASE_URL: value.baseUrl,
    ...(type === undefined ? {} : { COPILOT_PROVIDER_TYPE: type }),
    ...(wireApi === undefined ? {} : { COPILOT_PROVIDER_WIRE_API: wireApi }),
    COPILOT_OFFLINE: 'true',
  };
}
