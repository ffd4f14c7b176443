import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { checkFlagValue, checkStringList } from '../../local/local-cli-preset.js';
import { DEFAULT_INHERITED_ENV } from '../../local/local-command-defaults.js';
import { AcpExecutionAdapter } from './acp-adapter.js';
import type { AcpAdapterOptions } from './acp-adapter-options.js';

/** Options of the ACP engine presets: the adapter's options without `command`/`args`, plus the CLI's. */
export interface AcpPresetOptions extends Omit<AcpAdapterOptions, 'command' | 'args' | 'backendId' | 'label'> {
  /** The CLI to run: a name looked up on `PATH` or a path. @default `gemini` / `opencode` */
  command?: string | undefined;
  /** Model name passed to the CLI (Gemini: `-m`). @default the CLI's own default */
  model?: string | undefined;
  /** Extra arguments after the preset's own. Never secrets: arguments are visible in the process list. @default [] */
  extraArgs?: readonly string[] | undefined;
}

/** Options of {@link createOpenCodeAcpAdapter}. */
export interface OpenCodeAcpPresetOptions extends Omit<AcpPresetOptions, 'model'> {
  /**
   * opencode's `permission` settings, passed in `OPENCODE_PERMISSION`. opencode asks the host
   * only for tools set to `"ask"`; without it bash runs unasked. Pass `null` to leave opencode's
   * own configuration alone.
   * @default { bash: 'ask', edit: 'ask' }
   */
  permission?: Readonly<Record<string, 'ask' | 'allow' | 'deny'>> | null | undefined;
}

/**
 * Gemini CLI over ACP (`gemini --acp`), backend id `gemini-acp`. Gemini asks permission for shell
 * commands and edits in its default mode. Inherits `GEMINI_*` and `GOOGLE_*` besides the defaults.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createGeminiAcpAdapter(options: AcpPresetOptions = {}): AcpExecutionAdapter {
  const label = 'Gemini CLI (ACP)';
  const { model, extraArgs, command, ...rest } = checkPreset(options, label);
  checkFlagValue(model, 'model', label);
  return new AcpExecutionAdapter({
    ...rest,
    backendId: 'gemini-acp',
    label,
    command: command ?? 'gemini',
    args: ['--acp', ...(model === undefined ? [] : ['-m', model]), ...(checkStringList(extraArgs, 'extraArgs', label) ?? [])],
    inheritEnv: options.inheritEnv ?? [...DEFAULT_INHERITED_ENV, 'GEMINI_*', 'GOOGLE_*'],
    notes: ['Runs `gemini --acp`; the prompt (with the instructions on the first turn) is sent with session/prompt.', ...(options.notes ?? [])],
  });
}

/**
 * opencode over ACP (`opencode acp --cwd <cwd>`), backend id `opencode-acp`. Sets
 * `OPENCODE_PERMISSION` so opencode asks before bash and edits (see `permission`). A rejected
 * request ends opencode's prompt without text: the turn completes with a sentence saying so.
 * Inherits `OPENCODE_*` and `XDG_*` besides the defaults.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createOpenCodeAcpAdapter(options: OpenCodeAcpPresetOptions = {}): AcpExecutionAdapter {
  const label = 'opencode (ACP)';
  const { extraArgs, command, permission, ...rest } = checkPreset(options, label);
  const permissionSetting = permission === undefined ? { bash: 'ask', edit: 'ask' } : permission;
  if (permissionSetting !== null) {
    if (typeof permissionSetting !== 'object' || Array.isArray(permissionSetting)) {
      throw new HarnessConfigError(`${label} option permission must be an object or null.`, { field: 'permission' });
    }
    for (const [tool, value] of Object.entries(permissionSetting)) {
      if (value !== 'ask' && value !== 'allow' && value !== 'deny') {
        throw new HarnessConfigError(`${label} option permission.${tool} must be 'ask', 'allow' or 'deny'.`, { field: `permission.${tool}` });
      }
    }
  }
  const cwd = options.cwd;
  return new AcpExecutionAdapter({
    ...rest,
    backendId: 'opencode-acp',
    label,
    command: command ?? 'opencode',
    args: ['acp', ...(cwd === undefined ? [] : ['--cwd', cwd]), ...(checkStringList(extraArgs, 'extraArgs', label) ?? [])],
    env: { ...(permissionSetting === null ? {} : { OPENCODE_PERMISSION: JSON.stringify(permissionSetting) }), ...(options.env ?? {}) },
    inheritEnv: options.inheritEnv ?? [...DEFAULT_INHERITED_ENV, 'OPENCODE_*'],
    notes: [
      'Runs `opencode acp`; OPENCODE_PERMISSION makes it ask before bash and edits.',
      'A rejected permission ends the prompt without text; the turn completes with a note.',
      ...(options.notes ?? []),
    ],
  });
}

/** Checks that a preset's options are an object. */
export function checkPreset<T extends AcpPresetOptions>(options: T, label: string): T {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new HarnessConfigError(`${label} options must be an object.`, { field: 'options' });
  }
  return options;
}
