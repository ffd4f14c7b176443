import { checkFlagValue, checkStringList } from '../../local/local-cli-preset.js';
import { DEFAULT_INHERITED_ENV } from '../../local/local-command-defaults.js';
import { AcpExecutionAdapter } from './acp-adapter.js';
import { checkHome, checkProvider, engineHomeSetup, type AcpEngineProvider } from './acp-engine-home.js';
import { checkPreset, type AcpPresetOptions } from './acp-presets.js';

/** Options of {@link createQwenAcpAdapter}. */
export interface QwenAcpPresetOptions extends AcpPresetOptions {
  /**
   * An OpenAI-compatible endpoint: passed as `OPENAI_BASE_URL`, `OPENAI_API_KEY` and
   * `OPENAI_MODEL` (Qwen Code's `openai` auth). @default Qwen Code's own auth (inherited `OPENAI_*`)
   */
  provider?: AcpEngineProvider | undefined;
  /**
   * Qwen Code's home (it keeps `~/.qwen/` settings and sessions there). `session/load` of an
   * earlier session needs the home that session was written to. @default a private directory per adapter, removed on dispose()
   */
  home?: string | undefined;
}

/** Qwen Code's settings in a home it gets: no usage statistics or telemetry, `openai` auth. */
export const QWEN_SETTINGS = /* @__PURE__ */ JSON.stringify({
  privacy: { usageStatisticsEnabled: false },
  security: { auth: { selectedType: 'openai' } },
  telemetry: { enabled: false },
});

/**
 * Qwen Code over ACP (`qwen --acp --approval-mode default`), backend id `qwen-acp`. Qwen asks
 * permission for shell commands and edits (`session/request_permission`); the first request of a
 * process comes 5–13 s after the model's tool call. Runs with a private home (settings without
 * usage statistics or telemetry) and `QWEN_CODE_NO_RELAUNCH=true` (else qwen re-executes itself
 * as a child that outlives a signal to the parent). Usage comes from the chunks' `_meta.usage`;
 * a cancel during the model call, which qwen answers with a JSON-RPC error, is reported as
 * cancelled. Inherits `OPENAI_*` and `QWEN_*` besides the defaults.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createQwenAcpAdapter(options: QwenAcpPresetOptions = {}): AcpExecutionAdapter {
  const label = 'Qwen Code (ACP)';
  const { model, extraArgs, command, provider: given, home, ...rest } = checkPreset(options, label);
  checkFlagValue(model, 'model', label);
  const provider = checkProvider(given, label);
  return new AcpExecutionAdapter(
    {
      ...rest,
      backendId: 'qwen-acp',
      label,
      command: command ?? 'qwen',
      args: ['--acp', '--approval-mode', 'default', ...(model === undefined ? [] : ['--model', model]), ...(checkStringList(extraArgs, 'extraArgs', label) ?? [])],
      env: {
        QWEN_CODE_NO_RELAUNCH: 'true',
        ...(provider === undefined
          ? {}
          : { OPENAI_BASE_URL: provider.baseUrl, OPENAI_MODEL: provider.model, ...(provider.apiKey === undefined ? {} : { OPENAI_API_KEY: provider.apiKey }) }),
        ...(options.env ?? {}),
      },
      inheritEnv: options.inheritEnv ?? [...DEFAULT_INHERITED_ENV, 'OPENAI_*', 'QWEN_*'],
      notes: [
        'Runs `qwen --acp --approval-mode default` in a private home (no usage statistics, no telemetry); it asks before shell commands and edits.',
        'Custom provider: any OpenAI-compatible endpoint (provider option). Resume: session/load of its own session id (same home).',
        ...(options.notes ?? []),
      ],
    },
    engineHomeSetup({ prefix: 'harness-qwen-', home: checkHome(home, label), files: { '.qwen/settings.json': QWEN_SETTINGS } }),
  );
}
