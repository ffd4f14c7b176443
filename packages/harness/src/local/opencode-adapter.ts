import { buildLocalPrompt } from './build-local-prompt.js';
import { checkFlagValue, checkPresetOptions, presetBase, resumesSession, sessionContinuation, type PresetSpec } from './local-cli-preset.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCliPresetOptions } from './local-cli-preset-options.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';
import { parseOpenCodeOutput } from './parse-opencode-output.js';

/** Options of {@link OpenCodeExecutionAdapter}. `model` is `provider/model`, e.g. `anthropic/claude-sonnet-4-5`. */
export interface OpenCodeAdapterOptions extends LocalCliPresetOptions {
  /** `--agent` to run. @default undefined (opencode's default agent) */
  agent?: string | undefined;
}

const SPEC: PresetSpec = {
  backendId: 'opencode',
  defaultCommand: 'opencode',
  label: 'opencode',
  customProvider: true,
  inheritEnv: ['OPENCODE_*', 'ANTHROPIC_*', 'OPENAI_*', 'OPENROUTER_*', 'GEMINI_*', 'GOOGLE_*', 'GROQ_*', 'MISTRAL_*', 'XAI_*', 'DEEPSEEK_*'],
  notes: [
    'Runs `opencode run --format json`; the prompt (with the instructions) goes on stdin.',
    'Uses opencode built-in tools, not the request tools.',
    'Continuation: the opencode session id, resumed with --session.',
  ],
};

/**
 * opencode as a backend (`opencode`): `opencode run --format json` with the prompt on stdin; the
 * `sessionID` of its events is the opaque continuation, resumed with `--session <id>`.
 */
export class OpenCodeExecutionAdapter extends LocalCommandExecutionAdapter {
  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: OpenCodeAdapterOptions = {}) {
    super(openCodeConfig(options));
  }
}

/**
 * Creates an {@link OpenCodeExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createOpenCodeAdapter(options: OpenCodeAdapterOptions = {}): OpenCodeExecutionAdapter {
  return new OpenCodeExecutionAdapter(options);
}

function openCodeConfig(options: OpenCodeAdapterOptions): LocalCommandAdapterConfig {
  checkPresetOptions(options, SPEC);
  const agent = checkFlagValue(options.agent, 'agent', SPEC.label);
  return {
    ...presetBase(options, SPEC),
    continuationFor: (_request, incoming) => sessionContinuation(SPEC.backendId, incoming),
    buildArgs(_request, { incomingContinuation }) {
      const args = ['run', '--format', 'json'];
      if (resumesSession(incomingContinuation)) args.push(`--session=${incomingContinuation.continuationId}`);
      if (options.model !== undefined) args.push(`--model=${options.model}`);
      if (agent !== undefined) args.push(`--agent=${agent}`);
      return [...args, ...(options.extraArgs ?? [])];
    },
    stdin: (request, { incomingContinuation }) => {
      const resuming = resumesSession(incomingContinuation);
      return buildLocalPrompt(request, { includeInstructions: !resuming, resumingSession: resuming });
    },
    parseOutput: (stdout, { continuation }) =>
      parseOpenCodeOutput(stdout, { backendId: SPEC.backendId, ...(continuation === undefined ? {} : { continuation }) }),
  };
}
