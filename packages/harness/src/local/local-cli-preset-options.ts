import type { LocalSpawnFn } from './local-spawn.js';

/**
 * Options every CLI preset (`ClaudeCodeExecutionAdapter`, `CodexExecutionAdapter`,
 * `GeminiCliExecutionAdapter`, `OpenCodeExecutionAdapter`) takes.
 */
export interface LocalCliPresetOptions {
  /** The CLI to run: a name looked up on `PATH` or a path. @default the CLI's usual binary (`claude`, `codex`, `gemini`, `opencode`) */
  command?: string | undefined;
  /**
   * Variables added to the inherited environment, e.g. `{ ANTHROPIC_API_KEY: key }`. Secrets go
   * here, never into `extraArgs`. @default {}
   */
  env?: Readonly<Record<string, string>> | undefined;
  /** Working directory of the CLI (its workspace). @default the current directory */
  cwd?: string | undefined;
  /** Model name passed to the CLI's model option. @default the CLI's own default */
  model?: string | undefined;
  /**
   * Wall time of one run, in milliseconds; lowered by the harness deadline (`request.timeoutMs`).
   * @default 300000 (5 minutes)
   */
  timeoutMs?: number | undefined;
  /**
   * Extra command-line arguments, placed after the preset's own options and before the prompt
   * marker / session sub-command. Never put secrets here: arguments are visible in the process list.
   * @default []
   */
  extraArgs?: readonly string[] | undefined;
  /**
   * Names of the parent's environment variables passed through (`FOO_*` is a prefix). Replaces
   * the preset's list, which is `DEFAULT_INHERITED_ENV` plus the CLI's own variables (for Claude
   * Code `ANTHROPIC_*` and `CLAUDE_*`).
   * @default DEFAULT_INHERITED_ENV plus the CLI's variables
   */
  inheritEnv?: readonly string[] | undefined;
  /** Milliseconds between SIGTERM and SIGKILL when stopping the CLI. @default 2000 */
  killGraceMs?: number | undefined;
  /** Cap on captured stdout, and separately on stderr, in bytes. @default 8388608 (8 MiB) */
  maxOutputBytes?: number | undefined;
  /** Starts the CLI instead of `child_process.spawn` (see `LocalCommandAdapterConfig.spawnFn`). @default `spawn` from `node:child_process` */
  spawnFn?: LocalSpawnFn | undefined;
}
