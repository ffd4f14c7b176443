import { ClaudeCodeExecutionAdapter, type ClaudeCodeAdapterOptions } from '../local/claude-code-adapter.js';
import { CodexExecutionAdapter, type CodexAdapterOptions } from '../local/codex-adapter.js';
import { GeminiCliExecutionAdapter, type GeminiCliAdapterOptions } from '../local/gemini-cli-adapter.js';
import type { LocalSpawnFn } from '../local/local-spawn.js';
import { OpenCodeExecutionAdapter, type OpenCodeAdapterOptions } from '../local/opencode-adapter.js';
import { createAdapterRunner } from './adapter-runner.js';
import type { CliRunner } from './cli-runner.js';
import { orphanGuardSpawn } from './internal/orphan-guard-spawn.js';

// Each runner is the local backend preset of its CLI behind `createAdapterRunner`: the same
// process layer (no shell, closed or piped stdin, env allow-list, output caps, process-group
// kill) and the same output parser, so a reply carries the CLI's usage, errors and session id.
// Without a `spawnFn` of the caller's, each CLI runs under an orphan guard that stops it when the
// worker process dies without cleaning up.

function guarded<Options extends { spawnFn?: LocalSpawnFn }>(options: Options): Options {
  if (options.spawnFn !== undefined) return options;
  const spawnFn = orphanGuardSpawn();
  return spawnFn === undefined ? options : { ...options, spawnFn };
}

/**
 * Runs Claude Code (`claude -p --output-format json`, prompt on stdin) for each request; the
 * Claude session id comes back as the continuation and is resumed with `--resume`. Takes every
 * option of `ClaudeCodeExecutionAdapter` (`command`, `spawnFn`, `model`, `cwd`, `env`,
 * `permissionMode`, …).
 * @throws HarnessConfigError when an option is invalid.
 */
export function createClaudeCliRunner(options: ClaudeCodeAdapterOptions = {}): CliRunner {
  return createAdapterRunner(new ClaudeCodeExecutionAdapter(guarded(options)), { id: 'claude' });
}

/**
 * Runs the Codex CLI (`codex exec --json -`) for each request; the Codex thread id is the
 * continuation. Takes every option of `CodexExecutionAdapter`.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createCodexCliRunner(options: CodexAdapterOptions = {}): CliRunner {
  return createAdapterRunner(new CodexExecutionAdapter(guarded(options)), { id: 'codex' });
}

/**
 * Runs opencode (`opencode run --format json`) for each request; the opencode session id is the
 * continuation. Takes every option of `OpenCodeExecutionAdapter`.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createOpenCodeCliRunner(options: OpenCodeAdapterOptions = {}): CliRunner {
  return createAdapterRunner(new OpenCodeExecutionAdapter(guarded(options)), { id: 'opencode' });
}

/**
 * Runs the Gemini CLI (`gemini --output-format json`) for each request; the Gemini session id
 * is the continuation. Takes every option of `GeminiCliExecutionAdapter`.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createGeminiCliRunner(options: GeminiCliAdapterOptions = {}): CliRunner {
  return createAdapterRunner(new GeminiCliExecutionAdapter(guarded(options)), { id: 'gemini' });
}
