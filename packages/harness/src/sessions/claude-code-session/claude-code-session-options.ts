import * as v from '../../shared/validation/index.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { DEFAULT_INHERITED_ENV } from '../../local/local-command-defaults.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { lazySchema } from '../../shared/schemas/lazy-schema.js';

/** Claude Code's `--permission-mode` values that still ask the host (the others never ask). */
export type ClaudeCodeSessionPermissionMode = 'default' | 'acceptEdits' | 'plan';

/** Options of {@link createClaudeCodeSessionAdapter}. */
export interface ClaudeCodeSessionAdapterOptions {
  /** The `claude` binary: a name looked up on `PATH` or a path. @default 'claude' */
  command?: string | undefined;
  /** Working directory of the engine (its workspace). @default the current directory */
  cwd?: string | undefined;
  /** Variables added to the inherited environment, e.g. `{ ANTHROPIC_API_KEY: key }`. Secrets go here, never in `extraArgs`. @default {} */
  env?: Readonly<Record<string, string>> | undefined;
  /** Names of the parent's variables passed through (`FOO_*` is a prefix). @default DEFAULT_INHERITED_ENV plus `ANTHROPIC_*`, `CLAUDE_*`, `AWS_*`, ... */
  inheritEnv?: readonly string[] | undefined;
  /** `--model`. @default Claude's own default */
  model?: string | undefined;
  /** `--permission-mode`; only modes in which Claude still asks are accepted. @default 'default' */
  permissionMode?: ClaudeCodeSessionPermissionMode | undefined;
  /** Tool patterns allowed without asking (`--allowedTools`), e.g. `['Read', 'Bash(git status)']`. @default undefined */
  allowedTools?: readonly string[] | undefined;
  /** Tool patterns refused without asking (`--disallowedTools`). @default undefined */
  disallowedTools?: readonly string[] | undefined;
  /**
   * How the first turn's instructions reach Claude: appended to its system prompt
   * (`--append-system-prompt`) or replacing it (`--system-prompt`). Later turns of a live session
   * keep the instructions the process started with. @default 'append'
   */
  systemPromptMode?: 'append' | 'replace' | undefined;
  /**
   * What an `approved` decision allows: `once` (this call only) or `session` (Claude's own
   * permission suggestions are applied, so the same command is not asked again in this session).
   * @default 'once'
   */
  approvalScope?: 'once' | 'session' | undefined;
  /** What the model is told when the host rejects a tool call. @default 'The user rejected this tool call.' */
  rejectionMessage?: string | undefined;
  /** Extra arguments after the adapter's own. Never secrets: arguments are visible in the process list. @default [] */
  extraArgs?: readonly string[] | undefined;
  /** Wall time of one call of `execute` (a turn, or the part after an approval), in milliseconds; lowered by `request.timeoutMs`. @default 600000 */
  timeoutMs?: number | undefined;
  /** Milliseconds between closing stdin, SIGTERM and SIGKILL when a process is stopped, and the wait for an interrupted turn to end. @default 2000 */
  killGraceMs?: number | undefined;
  /** Live `claude` processes at most. @default 4 */
  maxLiveSessions?: number | undefined;
  /** An idle live session is stopped after this many milliseconds. @default 600000 */
  idleTimeoutMs?: number | undefined;
  /** Longest stdout line accepted, in bytes; a longer one stops the engine. @default 8388608 (8 MiB) */
  maxLineBytes?: number | undefined;
  /** Bytes of stderr kept for error messages. @default 65536 */
  maxStderrBytes?: number | undefined;
}

/** The options after validation, with defaults filled in. */
export interface ResolvedClaudeCodeSessionOptions {
  command: string;
  cwd: string | undefined;
  env: Readonly<Record<string, string>> | undefined;
  inheritEnv: readonly string[];
  model: string | undefined;
  permissionMode: ClaudeCodeSessionPermissionMode;
  allowedTools: readonly string[];
  disallowedTools: readonly string[];
  systemPromptMode: 'append' | 'replace';
  approvalScope: 'once' | 'session';
  rejectionMessage: string;
  extraArgs: readonly string[];
  timeoutMs: number;
  killGraceMs: number;
  maxLiveSessions: number | undefined;
  idleTimeoutMs: number | undefined;
  maxLineBytes: number;
  maxStderrBytes: number;
}

/** The environment variables of Claude Code and its cloud providers, inherited by default. */
export const CLAUDE_INHERITED_ENV: readonly string[] = ['ANTHROPIC_*', 'CLAUDE_*', 'AWS_*', 'GOOGLE_APPLICATION_CREDENTIALS', 'CLOUD_ML_REGION', 'DISABLE_*'];

const MAX_TIMER_MS = 2_147_483_647;

const optionsSchema = /* @__PURE__ */ lazySchema(() => {
  const flagValue = v.string().check(
    v.refine((value) => value.trim() !== '' && !value.startsWith('-') && !value.includes('\0'), 'must be a non-empty string not starting with "-"'),
  );
  const count = (max: number) => v.optional(v.int().check(v.minimum(1), v.maximum(max)));
  return v.strictObject({
    command: v.optional(v.string().check(v.minLength(1))),
    cwd: v.optional(v.string().check(v.minLength(1))),
    env: v.optional(v.record(v.string(), v.string())),
    inheritEnv: v.optional(v.array(v.string())),
    model: v.optional(flagValue),
    permissionMode: v.optional(v.enum(['default', 'acceptEdits', 'plan'])),
    allowedTools: v.optional(v.array(flagValue)),
    disallowedTools: v.optional(v.array(flagValue)),
    systemPromptMode: v.optional(v.enum(['append', 'replace'])),
    approvalScope: v.optional(v.enum(['once', 'session'])),
    rejectionMessage: v.optional(v.string().check(v.minLength(1), v.maxLength(4_000))),
    extraArgs: v.optional(v.array(v.string())),
    timeoutMs: count(MAX_TIMER_MS),
    killGraceMs: count(MAX_TIMER_MS),
    maxLiveSessions: count(1_000),
    idleTimeoutMs: count(MAX_TIMER_MS),
    maxLineBytes: count(1_073_741_824),
    maxStderrBytes: count(1_073_741_824),
  });
});

/**
 * Validates the options and fills in defaults.
 * @throws HarnessConfigError naming the first invalid field.
 */
export function resolveClaudeCodeSessionOptions(options: ClaudeCodeSessionAdapterOptions): ResolvedClaudeCodeSessionOptions {
  const parsed = optionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') || 'options';
    throw new HarnessConfigError(`Claude Code session adapter: invalid options: ${formatIssues(parsed.error.issues)}.`, { field });
  }
  const value = parsed.data;
  return {
    command: value.command ?? 'claude',
    cwd: value.cwd,
    env: value.env,
    inheritEnv: value.inheritEnv ?? [...DEFAULT_INHERITED_ENV, ...CLAUDE_INHERITED_ENV],
    model: value.model,
    permissionMode: value.permissionMode ?? 'default',
    allowedTools: value.allowedTools ?? [],
    disallowedTools: value.disallowedTools ?? [],
    systemPromptMode: value.systemPromptMode ?? 'append',
    approvalScope: value.approvalScope ?? 'once',
    rejectionMessage: value.rejectionMessage ?? 'The user rejected this tool call.',
    extraArgs: value.extraArgs ?? [],
    timeoutMs: value.timeoutMs ?? 600_000,
    killGraceMs: value.killGraceMs ?? 2_000,
    maxLiveSessions: value.maxLiveSessions,
    idleTimeoutMs: value.idleTimeoutMs,
    maxLineBytes: value.maxLineBytes ?? 8 * 1024 * 1024,
    maxStderrBytes: value.maxStderrBytes ?? 64 * 1024,
  };
}
