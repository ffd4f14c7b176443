import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { configOverrides } from '../../local/codex-adapter.js';
import { checkChoice, checkFlagValue } from '../../local/local-cli-preset.js';
import { DEFAULT_INHERITED_ENV, DEFAULT_LOCAL_COMMAND_OPTIONS } from '../../local/local-command-defaults.js';
import type { CodexThreadSettings } from './codex-session.js';

/** The label in messages of the codex app-server backend. */
export const LABEL = 'Codex app-server';

/** Options of `createCodexAppServerAdapter`. */
export interface CodexAppServerAdapterOptions {
  /** The codex binary: a name looked up on `PATH` or a path. @default 'codex' */
  command?: string | undefined;
  /** Working directory of the engine and of its threads. @default the current directory */
  cwd?: string | undefined;
  /** Variables added to the inherited environment (e.g. a provider key named by `env_key`). Never secrets in `config`. @default {} */
  env?: Readonly<Record<string, string>> | undefined;
  /** Parent variables passed through (`FOO_*` is a prefix). @default DEFAULT_INHERITED_ENV plus `OPENAI_*`, `CODEX_*`, `AZURE_OPENAI_*` */
  inheritEnv?: readonly string[] | undefined;
  /** Model of new threads. @default codex's own default */
  model?: string | undefined;
  /** Configuration overrides, each passed as `-c key=value` (TOML-encoded), as for `createCodexAdapter`. @default {} */
  config?: Readonly<Record<string, string | number | boolean>> | undefined;
  /**
   * When codex asks before it acts. Only `'untrusted'` makes codex ask for every non-trivial
   * command (native approvals); `'on-request'` asks only when the model requests escalation;
   * `'never'` never asks. @default 'untrusted'
   */
  approvalPolicy?: 'untrusted' | 'on-request' | 'never' | undefined;
  /** Sandbox of commands codex runs. @default undefined (codex's default) */
  sandbox?: 'read-only' | 'workspace-write' | 'danger-full-access' | undefined;
  /**
   * What an `approved` decision grants: `'once'` answers codex `accept`; `'session'` answers
   * `acceptForSession` (codex stops asking for the same command in this session). A `rejected`
   * decision always answers `decline`.
   * @default 'once'
   */
  approvalScope?: 'once' | 'session' | undefined;
  /** Wall time of one `execute` call (a turn, or its part until an approval), in milliseconds; lowered by `request.timeoutMs`. @default 300000 */
  timeoutMs?: number | undefined;
  /** Milliseconds between closing stdin, SIGTERM and SIGKILL when stopping codex; also the wait for an interrupted turn to end. @default 2000 */
  killGraceMs?: number | undefined;
  /** Longest line codex may write, in bytes. @default 8388608 (8 MiB) */
  maxLineBytes?: number | undefined;
  /** Most live codex processes (one per session). @default 4 */
  maxLiveSessions?: number | undefined;
  /** An idle session — including one paused on an approval — is stopped after this many milliseconds. @default 600000 */
  idleTimeoutMs?: number | undefined;
}

/** Options after validation, with defaults applied. */
export interface ResolvedOptions {
  command: string;
  cwd: string | undefined;
  env: Readonly<Record<string, string>> | undefined;
  inheritEnv: readonly string[];
  args: string[];
  thread: Omit<CodexThreadSettings, 'developerInstructions'>;
  approvedDecision: 'accept' | 'acceptForSession';
  timeoutMs: number;
  killGraceMs: number;
  maxLineBytes: number;
  /** Passed to the session pool, which checks them. */
  maxLiveSessions: number | undefined;
  idleTimeoutMs: number | undefined;
}

/** Validates the options and applies defaults. @throws HarnessConfigError naming the bad field. */
export function resolveOptions(options: CodexAppServerAdapterOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new HarnessConfigError(`${LABEL} options must be an object.`, { field: 'options' });
  const command = options.command ?? 'codex';
  if (typeof command !== 'string' || command.trim() === '' || command.includes('\0')) {
    throw new HarnessConfigError(`${LABEL} option command must be a non-empty string.`, { field: 'command' });
  }
  if (options.cwd !== undefined && (typeof options.cwd !== 'string' || options.cwd === '' || options.cwd.includes('\0'))) {
    throw new HarnessConfigError(`${LABEL} option cwd must be a non-empty path.`, { field: 'cwd' });
  }
  checkEnv(options.env);
  const inheritEnv = options.inheritEnv ?? [...DEFAULT_INHERITED_ENV, 'OPENAI_*', 'CODEX_*', 'AZURE_OPENAI_*'];
  if (!Array.isArray(inheritEnv) || !inheritEnv.every((name) => typeof name === 'string' && name !== '')) {
    throw new HarnessConfigError(`${LABEL} option inheritEnv must be an array of variable names.`, { field: 'inheritEnv' });
  }
  const model = checkFlagValue(options.model, 'model', LABEL);
  const approvalPolicy = checkChoice(options.approvalPolicy, ['untrusted', 'on-request', 'never'], 'approvalPolicy', LABEL) ?? 'untrusted';
  const sandbox = checkChoice(options.sandbox, ['read-only', 'workspace-write', 'danger-full-access'], 'sandbox', LABEL);
  const approvalScope = checkChoice(options.approvalScope, ['once', 'session'], 'approvalScope', LABEL) ?? 'once';
  const approvedDecision = approvalScope === 'session' ? 'acceptForSession' : 'accept';
  return {
    command,
    cwd: options.cwd,
    env: options.env,
    inheritEnv,
    args: ['app-server', ...configOverrides(options.config)],
    thread: {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(model === undefined ? {} : { model }),
      approvalPolicy,
      ...(sandbox === undefined ? {} : { sandbox }),
    },
    approvedDecision,
    timeoutMs: positive(options.timeoutMs, 'timeoutMs') ?? DEFAULT_LOCAL_COMMAND_OPTIONS.timeoutMs,
    killGraceMs: positive(options.killGraceMs, 'killGraceMs') ?? DEFAULT_LOCAL_COMMAND_OPTIONS.killGraceMs,
    maxLineBytes: positive(options.maxLineBytes, 'maxLineBytes') ?? DEFAULT_LOCAL_COMMAND_OPTIONS.maxOutputBytes,
    maxLiveSessions: options.maxLiveSessions,
    idleTimeoutMs: options.idleTimeoutMs,
  };
}

function checkEnv(env: unknown): void {
  if (env === undefined) return;
  if (typeof env !== 'object' || env === null || Array.isArray(env) || !Object.values(env).every((value) => typeof value === 'string')) {
    throw new HarnessConfigError(`${LABEL} option env must be an object of strings.`, { field: 'env' });
  }
}

function positive(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 2_147_483_647) {
    throw new HarnessConfigError(`${LABEL} option ${field} must be a positive integer.`, { field });
  }
  return value;
}
