import type { ExecutionRequest, ExecutionStreamEvent } from '../execution/types.js';
import { buildLocalPrompt } from './build-local-prompt.js';
import { instructionsText } from './instructions-text.js';
import { createClaudeCodeStreamReader } from './read-claude-code-stream.js';
import {
  checkChoice,
  checkPresetOptions,
  checkStringList,
  presetBase,
  resumesSession,
  sessionContinuation,
  type PresetSpec,
} from './local-cli-preset.js';
import { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import type { LocalCliPresetOptions } from './local-cli-preset-options.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';
import { parseClaudeCodeOutput } from './parse-claude-code-output.js';

/** Claude Code's `--permission-mode` values (2.1.x). */
export type ClaudeCodePermissionMode = 'acceptEdits' | 'auto' | 'bypassPermissions' | 'manual' | 'dontAsk' | 'plan';

const PERMISSION_MODES: readonly string[] = ['acceptEdits', 'auto', 'bypassPermissions', 'manual', 'dontAsk', 'plan'];

/** Options of {@link ClaudeCodeExecutionAdapter}. */
export interface ClaudeCodeAdapterOptions extends LocalCliPresetOptions {
  /**
   * How the turn's instructions reach Claude: `append` adds them to Claude Code's own system
   * prompt (`--append-system-prompt`, keeping its tool guidance), `replace` swaps it out
   * (`--system-prompt`).
   * @default 'append'
   */
  systemPromptMode?: 'append' | 'replace' | undefined;
  /** Claude Code tool patterns allowed without asking, e.g. `['Read', 'Bash(git *)']` (`--allowedTools`). @default undefined (Claude's defaults) */
  allowedTools?: readonly string[] | undefined;
  /** Claude Code tool patterns denied (`--disallowedTools`). @default undefined */
  disallowedTools?: readonly string[] | undefined;
  /** `--permission-mode`. @default undefined (Claude's default) */
  permissionMode?: ClaudeCodePermissionMode | undefined;
  /**
   * Receives the answer's text as it streams. When set, the CLI runs with
   * `--output-format stream-json --verbose --include-partial-messages`; the final result is the
   * same either way. Errors it throws are ignored.
   * @default undefined (`--output-format json`)
   */
  onTextDelta?: ((text: string, request: ExecutionRequest) => void) | undefined;
}

const SPEC: PresetSpec = {
  backendId: 'claude-code',
  defaultCommand: 'claude',
  label: 'Claude Code CLI',
  streaming: true,
  customProvider: true,
  inheritEnv: ['ANTHROPIC_*', 'CLAUDE_*', 'AWS_*', 'GOOGLE_APPLICATION_CREDENTIALS', 'CLOUD_ML_REGION', 'DISABLE_*'],
  notes: [
    'Runs `claude -p`; the prompt goes on stdin, instructions via --append-system-prompt.',
    'Uses Claude Code built-in tools (allowedTools / permissionMode), not the request tools.',
    'Continuation: the Claude session id, resumed with --resume.',
  ],
};

/**
 * Claude Code as a backend (`claude-code`): `claude -p --output-format json` with the prompt on
 * stdin, a session id chosen up front (`--session-id`) and resumed with `--resume` from the
 * opaque continuation, so a timed-out or follow-up turn continues the same session. `is_error`
 * results are failures; usage and cost are reported.
 *
 * @example
 * const harness = createHarness({
 *   backend: new ClaudeCodeExecutionAdapter({ model: 'sonnet', allowedTools: ['Read'] }),
 * });
 */
export class ClaudeCodeExecutionAdapter extends LocalCommandExecutionAdapter {
  /** @throws HarnessConfigError when an option is invalid. */
  constructor(options: ClaudeCodeAdapterOptions = {}) {
    super(claudeCodeConfig(options));
  }
}

/**
 * Creates a {@link ClaudeCodeExecutionAdapter}.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createClaudeCodeAdapter(options: ClaudeCodeAdapterOptions = {}): ClaudeCodeExecutionAdapter {
  return new ClaudeCodeExecutionAdapter(options);
}

function claudeCodeConfig(options: ClaudeCodeAdapterOptions): LocalCommandAdapterConfig {
  checkPresetOptions(options, SPEC);
  const allowedTools = checkStringList(options.allowedTools, 'allowedTools', SPEC.label);
  const disallowedTools = checkStringList(options.disallowedTools, 'disallowedTools', SPEC.label);
  const permissionMode = checkChoice(options.permissionMode, PERMISSION_MODES, 'permissionMode', SPEC.label);
  const mode = checkChoice(options.systemPromptMode, ['append', 'replace'], 'systemPromptMode', SPEC.label) ?? 'append';
  const onTextDelta = options.onTextDelta;
  const readers = new WeakMap<ExecutionRequest, (line: string) => ExecutionStreamEvent[]>();
  return {
    ...presetBase(options, SPEC),
    streamEvents: createClaudeCodeStreamReader,
    continuationFor: (_request, incoming) => sessionContinuation(SPEC.backendId, incoming, () => crypto.randomUUID()),
    buildArgs(request, { incomingContinuation, continuation, streaming }) {
      const streams = onTextDelta !== undefined || streaming === true;
      const args = ['-p', '--output-format', streams ? 'stream-json' : 'json'];
      if (streams) args.push('--verbose', '--include-partial-messages');
      if (resumesSession(incomingContinuation)) args.push(`--resume=${incomingContinuation.continuationId}`);
      else if (continuation?.continuationId !== undefined) args.push(`--session-id=${continuation.continuationId}`);
      if (options.model !== undefined) args.push(`--model=${options.model}`);
      const instructions = instructionsText(request);
      if (instructions !== '') args.push(`--${mode === 'append' ? 'append-system-prompt' : 'system-prompt'}=${instructions}`);
      if (permissionMode !== undefined) args.push(`--permission-mode=${permissionMode}`);
      if (allowedTools !== undefined && allowedTools.length > 0) args.push(`--allowedTools=${allowedTools.join(',')}`);
      if (disallowedTools !== undefined && disallowedTools.length > 0) args.push(`--disallowedTools=${disallowedTools.join(',')}`);
      return [...args, ...(options.extraArgs ?? [])];
    },
    stdin: (request, { incomingContinuation }) =>
      buildLocalPrompt(request, { includeInstructions: false, resumingSession: resumesSession(incomingContinuation) }),
    parseOutput: (stdout, { continuation }) =>
      parseClaudeCodeOutput(stdout, { backendId: SPEC.backendId, ...(continuation === undefined ? {} : { continuation }) }),
    ...(onTextDelta === undefined
      ? {}
      : {
          onStdoutLine(line: string, request: ExecutionRequest) {
            let read = readers.get(request);
            if (read === undefined) readers.set(request, (read = createClaudeCodeStreamReader()));
            for (const event of read(line)) if (event.type === 'text_delta') onTextDelta(event.text, request);
          },
        }),
  };
}
