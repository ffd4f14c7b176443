import { checkChoice, checkFlagValue, checkStringList } from '../../local/local-cli-preset.js';
import { DEFAULT_INHERITED_ENV } from '../../local/local-command-defaults.js';
import { resolveCopilotNativeBinary } from '../../process/copilot-native-binary.js';
import { AcpExecutionAdapter } from './acp-adapter.js';
import { checkHome, checkProvider, engineHomeSetup, type AcpEngineProvider } from './acp-engine-home.js';
import { checkPreset, type AcpPresetOptions } from './acp-presets.js';

/** Options of {@link createCopilotAcpAdapter}. */
export interface CopilotAcpPresetOptions extends AcpPresetOptions {
  /**
   * Bring your own model (no GitHub sign-in): `COPILOT_PROVIDER_BASE_URL`,
   * `COPILOT_PROVIDER_API_KEY`, `COPILOT_MODEL`, `COPILOT_PROVIDER_TYPE`, and `COPILOT_OFFLINE=true`
   * (no GitHub authentication, telemetry, web tools or GitHub MCP server).
   * @default GitHub authentication (inherited `COPILOT_*`, `GH_TOKEN`, `GITHUB_TOKEN`)
   */
  provider?: (AcpEngineProvider & { type?: 'openai' | 'azure' | 'anthropic' | undefined }) | undefined;
  /** Copilot's home (it keeps `~/.copilot/` sessions and settings there). @default a private directory per adapter, removed on dispose() */
  home?: string | undefined;
  /**
   * `XDG_CACHE_HOME` of the engine: copilot unpacks its 235 MB package there on first start, so
   * adapters should share one. @default the parent's `XDG_CACHE_HOME`, else `$HOME/.cache`
   */
  cacheDir?: string | undefined;
}

/**
 * GitHub Copilot CLI over ACP (`copilot --acp`), backend id `copilot-acp`. Copilot asks
 * permission for shell commands and edits (`session/request_permission`); no allow-all switch is
 * passed. The npm `copilot` is a Node.js shim that leaves the native binary running when
 * signalled, so the preset runs the native binary beside it (see `resolveCopilotNativeBinary`).
 * Private home; `COPILOT_AUTO_UPDATE=false`. Inherits `COPILOT_*`, `GH_TOKEN` and `GITHUB_TOKEN`
 * besides the defaults.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createCopilotAcpAdapter(options: CopilotAcpPresetOptions = {}): AcpExecutionAdapter {
  const label = 'GitHub Copilot CLI (ACP)';
  const { model, extraArgs, command: given, provider: rawProvider, home, cacheDir, ...rest } = checkPreset(options, label);
  checkFlagValue(model, 'model', label);
  const provider = checkProvider(rawProvider, label);
  const type = checkChoice(rawProvider?.type, ['openai', 'azure', 'anthropic'], 'provider.type', label);
  const cache = checkHome(cacheDir, label, 'cacheDir');
  const command = given ?? 'copilot';
  const adapterEnv = options.env ?? {};
  return new AcpExecutionAdapter(
    {
      ...rest,
      backendId: 'copilot-acp',
      label,
      command,
      args: ['--acp', ...(model === undefined ? [] : ['--model', model]), ...(checkStringList(extraArgs, 'extraArgs', label) ?? [])],
      env: {
        COPILOT_AUTO_UPDATE: 'false',
        ...(provider === undefined
          ? {}
          : {
              COPILOT_OFFLINE: 'true',
              COPILOT_PROVIDER_BASE_URL: provider.baseUrl,
              COPILOT_MODEL: provider.model,
              ...(provider.apiKey === undefined ? {} : { COPILOT_PROVIDER_API_KEY: provider.apiKey }),
              ...(type === undefined ? {} : { COPILOT_PROVIDER_TYPE: type }),
            }),
        ...adapterEnv,
      },
      inheritEnv: options.inheritEnv ?? [...DEFAULT_INHERITED_ENV, 'COPILOT_*', 'GH_TOKEN', 'GITHUB_TOKEN'],
      notes: [
        'Runs the native `copilot --acp` binary (not the npm shim) in a private home; it asks before shell commands and edits.',
        'Custom provider: OpenAI-compatible, Azure or Anthropic endpoints (provider option, offline mode). Resume: session/load of its own session id (same home).',
        ...(options.notes ?? []),
      ],
    },
    engineHomeSetup({
      prefix: 'harness-copilot-',
      home: checkHome(home, label),
      files: {},
      keepCache: true,
      env: (_home, node): Record<string, string> => {
        const parent = node.process.env;
        const shared = cache ?? parent['XDG_CACHE_HOME'] ?? (parent['HOME'] === undefined ? undefined : node.path.join(parent['HOME'], '.cache'));
        return shared === undefined ? {} : { XDG_CACHE_HOME: shared };
      },
      command: async (node) => {
        const path = adapterEnv['PATH'] ?? node.process.env['PATH'];
        const cwd = options.cwd ?? node.process.cwd();
        return (await resolveCopilotNativeBinary(node, command, { PATH: path }, cwd)).path;
      },
    }),
  );
}
