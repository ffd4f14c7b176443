import { checkStringList } from '../../local/local-cli-preset.js';
import { DEFAULT_INHERITED_ENV } from '../../local/local-command-defaults.js';
import { AcpExecutionAdapter } from './acp-adapter.js';
import { checkHome, checkProvider, engineHomeSetup, type AcpEngineProvider } from './acp-engine-home.js';
import { checkPreset, type AcpPresetOptions } from './acp-presets.js';

/** Options of {@link createHermesAcpAdapter}. */
export interface HermesAcpPresetOptions extends Omit<AcpPresetOptions, 'model'> {
  /**
   * An OpenAI-compatible endpoint, written to `$HERMES_HOME/config.yaml` as the named provider
   * `harness` (`transport: chat_completions`) with the key read from `HERMES_HARNESS_API_KEY` in
   * the engine's environment (never written to a file). @default Hermes's own configuration in `home`
   */
  provider?: AcpEngineProvider | undefined;
  /** Hermes's home: `HOME`, with `HERMES_HOME` = `<home>/.hermes` (config, `state.db`). @default a private directory per adapter, removed on dispose() */
  home?: string | undefined;
}

/** Hermes's `config.yaml` for a provider (JSON strings are YAML double-quoted scalars). */
export function hermesConfig(provider: AcpEngineProvider): string {
  const quote = (value: string) => JSON.stringify(value);
  return [
    'model:',
    `  provider: ${quote('custom:harness')}`,
    `  default: ${quote(provider.model)}`,
    'providers:',
    '  harness:',
    `    api: ${quote(provider.baseUrl)}`,
    '    transport: chat_completions',
    '    key_env: HERMES_HARNESS_API_KEY',
    '',
  ].join('\n');
}

/**
 * Hermes Agent over ACP (`hermes acp`), backend id `hermes-acp`. Hermes asks permission
 * (`session/request_permission`) for dangerous terminal commands and, in its `default` mode,
 * edits; an answer it does not know, or `cancelled`, counts as deny. With `approvalScope:
 * 'session'` the approval answers `allow_session` (for this ACP session), never Hermes's permanent
 * `allow_always`. Private home (`HERMES_HOME` inside it). Inherits `HERMES_*` besides the defaults.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createHermesAcpAdapter(options: HermesAcpPresetOptions = {}): AcpExecutionAdapter {
  const label = 'Hermes Agent (ACP)';
  const { extraArgs, command, provider: given, home, ...rest } = checkPreset(options, label);
  const provider = checkProvider(given, label);
  return new AcpExecutionAdapter(
    {
      ...rest,
      backendId: 'hermes-acp',
      label,
      command: command ?? 'hermes',
      args: ['acp', ...(checkStringList(extraArgs, 'extraArgs', label) ?? [])],
      env: { ...(provider?.apiKey === undefined ? {} : { HERMES_HARNESS_API_KEY: provider.apiKey }), ...(options.env ?? {}) },
      inheritEnv: options.inheritEnv ?? [...DEFAULT_INHERITED_ENV, 'HERMES_*'],
      notes: [
        'Runs `hermes acp` in a private home; it asks before dangerous commands and edits (mode default).',
        'Custom provider: any OpenAI-compatible endpoint (provider option). Resume: session/load of its own session id (same engine process or home).',
        ...(options.notes ?? []),
      ],
    },
    engineHomeSetup({
      prefix: 'harness-hermes-',
      home: checkHome(home, label),
      files: provider === undefined ? {} : { '.hermes/config.yaml': hermesConfig(provider) },
      env: (path, node) => ({ HERMES_HOME: node.path.join(path, '.hermes') }),
    }),
  );
}
