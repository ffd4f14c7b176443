import { ClaudeCodeExecutionAdapter, type ClaudeCodeAdapterOptions } from '../local/claude-code-adapter.js';
import { CodexExecutionAdapter, type CodexAdapterOptions } from '../local/codex-adapter.js';
import { GeminiCliExecutionAdapter, type GeminiCliAdapterOptions } from '../local/gemini-cli-adapter.js';
import { OpenCodeExecutionAdapter, type OpenCodeAdapterOptions } from '../local/opencode-adapter.js';
import { createAdapterRunner } from './adapter-runner.js';
import type { CliRunner } from './cli-runner.js';

// Each runner is the local backend preset of its CLI behind `createAdapterRunner`: the same
// process layer (no shell, closed or piped stdin, env allow-list, output caps, process-group
// kill) and the same output parser, so a reply carries the CLI's usage, errors and session id.

/**
 * Runs Claude Code (`claude -p --output-format json`, prompt on stdin) for each request; the
 * Claude session id comes back as the continuation and is resumed with `--resume`. Takes every
 * option of `ClaudeCodeExecutionAdapter` (`command`, `spawnFn`, `model`, `cwd`, `env`,
 * `permissionMode`, …).
 * @throws HarnessConfigError when an option is invalid.
 */
export function createClaudeCliRunner(options: ClaudeCodeAdapterOptions = {}): CliRunner {
  return createAdapterRunner(new ClaudeCodeExecutionAdapter(options), { id: 'claude' });
}

/**
 * Runs the Codex CLI (`codex exec --json -`) for each request; the Codex thread id is the
 * continuation. Takes every option of `CodexExecutionAdapter`.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createCodexCliRunner(options: CodexAdapterOptions = {}): CliRunner {
  return createAdapterRunner(new CodexExecutionAdapter(options), { id: 'codex' });
}

/**
 * Runs opencode (`opencode run --format json`) for each request; the opencode session id is the
 * continuation. Takes every option of `OpenCodeExecutionAdapter`.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createOpenCodeCliRunner(options: OpenCodeAdapterOptions = {}): CliRunner {
  return createAdapterRunner(new OpenCodeExecutionAdapter(options), { id: 'opencode' });
}

/**
 * Runs the Gemini CLI (`gemini --output-format json`) for each request; the Gemini session id
 * is the continuation. Takes every option of `GeminiCliExecutionAdapter`.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createGeminiCliRunner(options: GeminiCliAdapterOptions = {}): CliRunner {
  return createAdapterRunner(new GeminiCliExecutionAdapter(options), { id: 'gemini' });
}
