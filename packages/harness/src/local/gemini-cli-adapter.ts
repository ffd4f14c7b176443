import { buildLocalPrompt } from './build-local-prompt.js';
import { checkChoice, checkPresetOptions, presetBase, resumesSession, sessionContinuation, type PresetSpec } from './local-cli-preset.js';
import { createGeminiCliStreamReader } from './internal/read-gemini-cli-stream.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCliPresetOptions } from './local-cli-preset-options.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';
import { parseGeminiCliOutput } from './parse-gemini-cli-output.js';

/** Gemini CLI's `--approval-mode` values. */
export type GeminiApprovalMode = 'default' | 'auto_edit' | 'yolo' | 'plan';

/** Options of {@link GeminiCliExecutionAdapter}. */
export interface GeminiCliAdapterOptions extends LocalCliPresetOptions {
  /**
   * `--approval-mode`, always passed. In headless mode `default` does not offer the shell tool
   * at all (the safe posture: nothing dangerous runs unasked); `auto_edit` lets it edit files,
   * `yolo` offers every tool without asking.
   * @default 'default'
   */
  approvalMode?: GeminiApprovalMode | undefined;
  /** Pass `--skip-trust`, trusting `cwd` for this run (otherwise an untrusted folder exits with code 55). @default false */
  trustWorkspace?: boolean | undefined;
}

const SPEC: PresetSpec = {
  backendId: 'gemini-cli',
  defaultCommand: 'gemini',
  label: 'Gemini CLI',
  streaming: true,
  customProvider: true,
  inheritEnv: ['GEMINI_*', 'GOOGLE_*'],
  notes: [
    'Runs `gemini --output-format json` (`stream-json` when the caller streams); the prompt (with the instructions) goes on stdin.',
    'Uses Gemini CLI built-in tools, not the request tools; starts in `--approval-mode=default` (no shell tool headless) unless approvalMode says otherwise.',
    'Continuation: the Gemini session id, chosen with --session-id and resumed with --resume.',
  ],
};

/**
 * Gemini CLI as a backend (`gemini-cli`): `gemini --output-format json` with the prompt on stdin
 * (headless because stdin is not a terminal), a session id chosen up front (`--session-id`) and
 * resumed with `--resume`. Reads its JSON error report from stderr and its unusual exit codes.
 */
export class GeminiCliExecutionAdapter extends LocalCommandExecutionAdapter {
  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: GeminiCliAdapterOptions = {}) {
    super(geminiConfig(options));
  }
}

/**
 * Creates a {@link GeminiCliExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createGeminiCliAdapter(options: GeminiCliAdapterOptions = {}): GeminiCliExecutionAdapter {
  return new GeminiCliExecutionAdapter(options);
}

function geminiConfig(options: GeminiCliAdapterOptions): LocalCommandAdapterConfig {
  checkPresetOptions(options, SPEC);
  const approvalMode = checkChoice(options.approvalMode, ['default', 'auto_edit', 'yolo', 'plan'], 'approvalMode', SPEC.label) ?? 'default';
  return {
    ...presetBase(options, SPEC),
    streamEvents: createGeminiCliStreamReader,
    continuationFor: (_request, incoming) => sessionContinuation(SPEC.backendId, incoming, () => crypto.randomUUID()),
    buildArgs(_request, { incomingContinuation, continuation, streaming }) {
      const args = ['--output-format', streaming === true ? 'stream-json' : 'json'];
      if (resumesSession(incomingContinuation)) args.push(`--resume=${incomingContinuation.continuationId}`);
      else if (continuation?.continuationId !== undefined) args.push(`--session-id=${continuation.continuationId}`);
      if (options.model !== undefined) args.push(`--model=${options.model}`);
      args.push(`--approval-mode=${approvalMode}`);
      if (options.trustWorkspace === true) args.push('--skip-trust');
      return [...args, ...(options.extraArgs ?? [])];
    },
    stdin: (request, { incomingContinuation }) => {
      const resuming = resumesSession(incomingContinuation);
      return buildLocalPrompt(request, { includeInstructions: !resuming, resumingSession: resuming });
    },
    parseOutput: (stdout, { stderr, exitCode, continuation }) =>
      parseGeminiCliOutput(stdout, {
        stderr,
        exitCode,
        backendId: SPEC.backendId,
        ...(continuation === undefined ? {} : { continuation }),
      }),
  };
}
